import path from 'node:path';
import { probeHost } from '#shared/node/bridge/probe.js';
import { DOCTOR_COMMAND } from '#shared/node/cli-commands.js';
import { argsOrExit } from '#shared/node/command-line.js';
import { xipeHome } from '#shared/node/paths.js';
import { checkBridge } from './doctor/bridge.js';
import { checkBrowser } from './doctor/browser.js';
import { checkExtensionBuilt } from './doctor/extension-built.js';
import { checkExtensionConnected } from './doctor/extension-connected.js';
import { checkHostManifests } from './doctor/host-manifest.js';
import { checkToken } from './doctor/token.js';
import type { BridgeState, CheckResult, CheckStatus, DoctorDeps, DoctorReport } from './doctor/types.js';
import { checkUserScripts } from './doctor/user-scripts.js';
import { checkWorkspace } from './doctor/workspace.js';
import { findBrowser } from './find-browser.js';
import { currentPlatform } from './install.js';
import { extensionDist } from './package-root.js';

/**
 * `x-ipe-uiux doctor`: checks every link from browser to workspace, in the order data flows, and
 * gives one fix per failure. One check per file in ./doctor/, each a plain function over injected
 * deps so tests can break one link at a time.
 */

export type { CheckResult, DoctorDeps, DoctorReport };

export async function runChecks(deps: DoctorDeps): Promise<DoctorReport> {
  const state: BridgeState = { hosts: [] };
  const checks: CheckResult[] = [
    checkBrowser(deps.findBrowser()),
    checkExtensionBuilt(deps.extensionDir),
    checkHostManifests(deps),
    checkToken(deps),
    await checkBridge(deps, state),
    checkExtensionConnected(state),
    checkUserScripts(state),
    checkWorkspace(deps),
  ];
  return { ok: checks.every((c) => c.status !== 'fail'), home: deps.home, workspace: deps.workspace, checks };
}

const MARK: Record<CheckStatus, string> = { ok: ' ok ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

export function formatReport(report: DoctorReport): string {
  const lines = [`x-ipe-uiux doctor (home ${report.home}, workspace ${report.workspace})`];
  for (const c of report.checks) {
    lines.push(`[${MARK[c.status]}] ${c.title}: ${c.detail}`);
    if (c.fix !== undefined && (c.status === 'fail' || c.status === 'warn'))
      lines.push(`       fix: ${c.fix}`);
  }
  lines.push(
    report.ok ? 'All links are fine.' : 'Something is broken: follow the fix lines above, top first.',
  );
  return `${lines.join('\n')}\n`;
}

export function defaultDoctorDeps(workspace: string): DoctorDeps {
  const platform = currentPlatform();
  return {
    home: xipeHome(),
    workspace,
    platform,
    extensionDir: extensionDist(),
    findBrowser: () => findBrowser({ platform }),
    probe: (descriptor, token) => probeHost(descriptor, token),
  };
}

export async function runDoctor(argv: string[]): Promise<number> {
  const args = argsOrExit(DOCTOR_COMMAND, argv);
  if (typeof args === 'number') return args;
  try {
    const workspace = path.resolve(args.values.workspace ?? process.cwd());
    const report = await runChecks(defaultDoctorDeps(workspace));
    process.stdout.write(
      args.values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report),
    );
    return report.ok ? 0 : 1;
  } catch (err) {
    process.stderr.write(`x-ipe-uiux doctor: ${(err as Error).message}\n`);
    return 1;
  }
}
