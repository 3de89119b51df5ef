import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { XipeError } from '#shared/errors.js';
import { createLogger, type Logger } from '#shared/node/logger.js';
import { referenceData } from '#test/helpers/store-fixtures.js';
import { FakeBridge, hostInfo, silentLogger } from '../test-support/fake-bridge.js';
import { type AuditEntry, auditLogPath, auditTarget, createAuditLog } from './audit-log.js';
import { createServer } from './server.js';

let dir: string;
const savedHome = process.env.XIPE_UIUX_HOME;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-audit-'));
  process.env.XIPE_UIUX_HOME = dir; // save_uiux_reference reads config.json from the home
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.XIPE_UIUX_HOME;
  else process.env.XIPE_UIUX_HOME = savedHome;
  fs.rmSync(dir, { recursive: true, force: true });
});

const entries = (file: string): AuditEntry[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditEntry);

/** Our server with an audit log in `dir`, connected in memory to an SDK client. */
async function auditedServer(bridge: FakeBridge, logger: Logger = silentLogger()) {
  const audit = createAuditLog({ file: auditLogPath(dir) });
  const server = createServer({ bridge, workspace: dir, logger, audit });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const close = async (): Promise<void> => {
    await client.close();
    await server.close();
  };
  return { client, close };
}

describe('auditTarget', () => {
  it('keeps only the targeting fields, as plain values', () => {
    expect(
      auditTarget({
        file_path: '/secret/script.js',
        code: 'alert(1)',
        tab_id: 7,
        url_contains: 'example.com',
        page_index: 0,
        browser: 'chromium-1',
        idea_folder: '018. Feature',
        comment: 'private',
        elements: [{ comment: 'x' }],
      }),
    ).toEqual({
      tab_id: 7,
      url_contains: 'example.com',
      page_index: 0,
      browser: 'chromium-1',
      idea_folder: '018. Feature',
    });
  });

  it('drops objects and arrays under a target name and truncates long strings', () => {
    const target = auditTarget({
      tab_id: { smuggled: 'payload' },
      browser: ['x'],
      url_contains: 'u'.repeat(5000),
    });
    expect(target).toEqual({ url_contains: `${'u'.repeat(200)}…` });
    expect(auditTarget(null)).toEqual({});
    expect(auditTarget('text')).toEqual({});
  });
});

describe('createAuditLog', () => {
  it('appends JSON lines to <home>/logs/audit.log, owner-only', () => {
    const file = auditLogPath(dir);
    expect(file).toBe(path.join(dir, 'logs', 'audit.log'));
    const log = createAuditLog({ file });
    const entry: AuditEntry = {
      time: '2025-01-01T00:00:00.000Z',
      tool: 'list_tabs',
      target: {},
      duration_ms: 3,
      outcome: 'ok',
    };
    log.record(entry);
    log.record({ ...entry, outcome: 'error', error_code: 'TIMEOUT' });
    expect(entries(file)).toEqual([entry, { ...entry, outcome: 'error', error_code: 'TIMEOUT' }]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never throws when the file cannot be opened, and says so once', () => {
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const errors: Error[] = [];
    const log = createAuditLog({ file: path.join(blocker, 'audit.log'), onError: (e) => errors.push(e) });
    log.record({ time: 't', tool: 'x', target: {}, duration_ms: 0, outcome: 'ok' });
    log.record({ time: 't', tool: 'x', target: {}, duration_ms: 0, outcome: 'ok' });
    expect(errors).toHaveLength(1);
  });
});

describe('every tool call is audited by the server, without payloads', () => {
  const SCRIPT_SECRET = 'SCRIPT-BODY-SECRET-91c2';
  const COMMENT_SECRET = 'DESIGNER-COMMENT-SECRET-4e7b';

  it('records target, duration and outcome of successes, failures and invalid calls', async () => {
    const script = path.join(dir, 'probe.js');
    fs.writeFileSync(script, `/* ${SCRIPT_SECRET} */ 1;`);
    const bridge = new FakeBridge([
      {
        info: hostInfo(10, 'chromium-a'),
        answer: (command) => {
          if (command === 'inject_script') {
            return {
              returnValue: 1,
              tab: { id: 5, url: 'https://e.test/', title: 't' },
              method: 'userScripts',
            };
          }
          if (command === 'save_reference') throw new XipeError('IDEA_NOT_FOUND', 'Idea folder not found: x');
          return null;
        },
      },
    ]);
    const { client, close } = await auditedServer(bridge);

    await client.callTool({
      name: 'inject_script',
      arguments: { file_path: script, tab_id: 5, browser: 'chromium-a' },
    });
    const data = referenceData({ idea_folder: '018. Feature' });
    (data.elements as Array<Record<string, unknown>>)[0] = {
      ...(data.elements as Array<Record<string, unknown>>)[0],
      comment: COMMENT_SECRET,
    };
    await client.callTool({ name: 'save_uiux_reference', arguments: data });
    await client.callTool({ name: 'inject_script', arguments: { file_path: 42, code: SCRIPT_SECRET } });
    await close();

    const raw = fs.readFileSync(auditLogPath(dir), 'utf8');
    expect(raw).not.toContain(SCRIPT_SECRET);
    expect(raw).not.toContain(COMMENT_SECRET);
    expect(raw).not.toContain(script); // not even the path: only targeting fields
    expect(entries(auditLogPath(dir))).toEqual([
      {
        time: expect.any(String),
        tool: 'inject_script',
        target: { tab_id: 5, browser: 'chromium-a' },
        duration_ms: expect.any(Number),
        outcome: 'ok',
      },
      {
        time: expect.any(String),
        tool: 'save_uiux_reference',
        target: { idea_folder: '018. Feature' },
        duration_ms: expect.any(Number),
        outcome: 'error',
        error_code: 'IDEA_NOT_FOUND',
      },
      {
        time: expect.any(String),
        tool: 'inject_script',
        target: {},
        duration_ms: expect.any(Number),
        outcome: 'error',
        error_code: 'VALIDATION_ERROR',
      },
    ]);
  });

  it('writes the records of a burst of calls in one write per log, at the latest when the server closes', async () => {
    const script = path.join(dir, 'probe.js');
    fs.writeFileSync(script, '1;');
    const bridge = new FakeBridge([
      {
        info: hostInfo(10, 'chromium-a'),
        answer: () => ({
          returnValue: 1,
          tab: { id: 5, url: 'https://e.test/', title: 't' },
          method: 'userScripts',
        }),
      },
    ]);
    const logFile = path.join(dir, 'logs', 'mcp.log');
    const logger = createLogger({ component: 'mcp', file: logFile, stderr: null });
    const { client, close } = await auditedServer(bridge, logger);
    const writes = vi.spyOn(fs, 'writeSync');
    try {
      for (let i = 0; i < 5; i += 1) {
        await client.callTool({ name: 'inject_script', arguments: { file_path: script, tab_id: 5 } });
      }
      expect(fs.readFileSync(auditLogPath(dir), 'utf8')).toBe(''); // written after the answers
      await close();
      expect(writes).toHaveBeenCalledTimes(2); // one for mcp.log, one for audit.log
    } finally {
      writes.mockRestore();
    }
    expect(entries(auditLogPath(dir)).map((e) => e.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    const lines = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"tool call"'));
    expect(lines.map((l) => JSON.parse(l))).toEqual(
      Array(5).fill(expect.objectContaining({ tool: 'inject_script', outcome: 'success' })),
    );
  });

  it('writes waiting records by itself shortly after a burst', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(10, 'chromium-a'), answer: () => null }]);
    const { client, close } = await auditedServer(bridge);
    await client.callTool({ name: 'bridge_status', arguments: {} });
    await expect.poll(() => entries(auditLogPath(dir)).length, { timeout: 2_000 }).toBe(1);
    await close();
  });

  it('records a call the client cancelled as cancelled, not ok', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(10, 'chromium-a'), answer: () => null }]);
    const { client, close } = await auditedServer(bridge);
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'wait_for_captures', arguments: { timeout_ms: 60_000 } }, undefined, {
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    await expect.poll(() => bridge.captureWaits.length).toBe(1);
    controller.abort('the user pressed Esc');
    expect(await call).toBeInstanceOf(Error);
    await expect.poll(() => fs.readFileSync(auditLogPath(dir), 'utf8')).toMatch(/wait_for_captures/);
    await close();
    expect(entries(auditLogPath(dir))).toEqual([
      expect.objectContaining({ tool: 'wait_for_captures', outcome: 'cancelled' }),
    ]);
  });
});
