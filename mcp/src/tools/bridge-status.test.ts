import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import { FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { ALLOW_USER_SCRIPTS_HINT, bridgeStatusTool, summarise } from './bridge-status.js';
import { runTool } from './call/run-tool.js';

async function call(bridge: FakeBridge) {
  const result = await runTool(
    bridgeStatusTool,
    {},
    toolContext(bridge, { toolName: 'bridge_status', workspace: '/ws' }),
  );
  expect(result.isError).toBeUndefined();
  return result.structuredContent as Record<string, unknown>;
}

describe('bridge_status', () => {
  it('succeeds with no host and says what to do', async () => {
    const body = await call(new FakeBridge([]));
    expect(body.hosts).toEqual([]);
    expect(body.summary).toMatch(/No browser is connected/);
    expect((body.next_steps as string[]).join(' ')).toMatch(
      /\/home\/run.*x-ipe-uiux start.*x-ipe-uiux doctor/,
    );
    expect(body).toMatchObject({
      home: '/home',
      runtime_dir: '/home/run',
      runtime_dir_refused: null,
      workspace: { path: '/ws', has_ideas_folder: false },
      mcp: { name: 'x-ipe-app-and-agent-interaction', protocol: PROTOCOL_VERSION },
      token: { file: '/home/token', present: true },
    });
  });

  it('reports each host, its browser, extension and log file', async () => {
    const body = await call(new FakeBridge([{ info: hostInfo(42, 'chromium-a'), answer: () => null }]));
    expect(body.hosts).toEqual([
      expect.objectContaining({ pid: 42, reachable: true, host: expect.objectContaining({ pid: 42 }) }),
    ]);
    expect(body.summary).toMatch(/chromium-a .*connected, user scripts allowed/);
    expect(body.next_steps).toEqual([]);
    expect(body.log_files).toEqual({
      mcp: null,
      audit: '/home/logs/audit.log',
      hosts: ['/home/logs/host.log'],
    });
    expect(body.queued_events).toBe(0);
  });

  it('says how to allow user scripts when they are not', () => {
    const info = hostInfo(1, 'b');
    if (info.extension !== null) info.extension.user_scripts_allowed = false;
    const { summary, nextSteps } = summarise({
      home: '/h',
      runtime_dir: '/h/run',
      runtime_dir_refused: null,
      token_file: '/h/token',
      token_present: true,
      queued_events: 0,
      hosts: [
        {
          descriptor_path: '/h/run/h-1.json',
          pid: 1,
          pid_alive: true,
          endpoint: '/h/run/h-1.sock',
          reachable: true,
          error: null,
          host: info,
        },
      ],
    });
    expect(summary).toMatch(/NOT allowed/);
    expect(nextSteps.join(' ')).toContain(ALLOW_USER_SCRIPTS_HINT);
  });

  it('names a host without its extension, and an unreachable host with its reason', () => {
    const { summary, nextSteps } = summarise({
      home: '/h',
      runtime_dir: '/h/run',
      runtime_dir_refused: null,
      token_file: '/h/token',
      token_present: true,
      queued_events: 0,
      hosts: [
        {
          descriptor_path: '/h/run/h-1.json',
          pid: 1,
          pid_alive: true,
          endpoint: 'e1',
          reachable: true,
          error: null,
          host: hostInfo(1, null),
        },
        {
          descriptor_path: '/h/run/h-2.json',
          pid: 2,
          pid_alive: true,
          endpoint: 'e2',
          reachable: false,
          error: {
            code: 'UNAUTHORIZED',
            message: 'Unauthorized (wrong token). Send the token from /h/token',
          },
          host: null,
        },
      ],
    });
    expect(summary).toMatch(/pid 1: reachable, but no extension/);
    expect(summary).toMatch(/pid 2: not reachable \(UNAUTHORIZED\)/);
    expect(nextSteps.join(' ')).toMatch(/reload the X-IPE extension.*wrong token/);
  });

  it('explains an unusable host when none is reachable', () => {
    const { summary } = summarise({
      home: '/h',
      runtime_dir: '/h/run',
      runtime_dir_refused: null,
      token_file: '/h/token',
      token_present: false,
      queued_events: 0,
      hosts: [
        {
          descriptor_path: '/h/run/h-2.json',
          pid: 2,
          pid_alive: true,
          endpoint: 'e2',
          reachable: false,
          error: { code: 'PROTOCOL_ERROR', message: 'speaks protocol 2' },
          host: null,
        },
      ],
    });
    expect(summary).toMatch(/h-2.json: speaks protocol 2/);
  });
});
