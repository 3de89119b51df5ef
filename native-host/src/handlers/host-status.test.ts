import { describe, expect, it } from 'vitest';
import { HostStatusResult } from '#shared/commands/host-status.js';
import type { HostInfo } from '#shared/envelopes.js';
import { hostStatus } from './host-status.js';
import type { HostHandlerContext } from './types.js';

const info: HostInfo = {
  pid: 5,
  host_version: '0.1.0',
  protocol: 1,
  started_at: '2026-01-01T00:00:00.000Z',
  endpoint: '/tmp/h/run/h-5.sock',
  log_file: '/tmp/h/logs/host.log',
  extension_connected: false,
  extension: null,
  origin: null,
};

const ctx = {
  hostInfo: () => info,
} as unknown as HostHandlerContext;

describe('host_status', () => {
  it('returns the live HostInfo, valid against the command result schema', async () => {
    const result = await hostStatus({}, ctx);
    expect(HostStatusResult.parse(result)).toEqual(info);
    expect(await hostStatus(undefined, ctx)).toEqual(info);
  });

  it('rejects unexpected params with VALIDATION_ERROR', async () => {
    await expect(hostStatus({ verbose: true }, ctx)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
