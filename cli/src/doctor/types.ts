import type { HostInfo } from '#shared/envelopes.js';
import type { ProbeOutcome } from '#shared/node/bridge/probe.js';
import type { EndpointDescriptor } from '#shared/node/endpoint-descriptor.js';
import type { PlatformEnv } from '../browsers.js';
import type { BrowserSearch } from '../find-browser.js';

/** What every doctor check returns and gets (one check per file in this folder; doctor.ts runs them). */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  id:
    | 'browser'
    | 'extension_built'
    | 'host_manifest'
    | 'token'
    | 'bridge'
    | 'extension_connected'
    | 'user_scripts'
    | 'workspace';
  title: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  ok: boolean;
  home: string;
  workspace: string;
  checks: CheckResult[];
}

export interface DoctorDeps {
  home: string;
  workspace: string;
  platform: PlatformEnv;
  extensionDir: string;
  findBrowser: () => BrowserSearch;
  probe: (descriptor: EndpointDescriptor, token: string) => Promise<ProbeOutcome>;
  uid?: number;
}

/** What the bridge check learnt, for the checks that ask the hosts it reached. */
export interface BridgeState {
  hosts: HostInfo[];
}
