/**
 * Load: 3 browsers (3 real hosts, each with its fake extension) × 3
 * real MCP servers issuing calls concurrently for XIPE_LOAD_SECONDS (default 60 seconds).
 * Every inject_script runs a script file carrying a per-call nonce and is routed to a
 * chosen browser, whose extension echoes the code and its browser id back; saves carry a nonce in
 * source_url; list_tabs merges all three browsers. Checked: every call is answered (none lost),
 * every answer carries its own nonce and the right browser (no cross-talk), no error at all, and
 * the saves form a gap-free run of sessions holding exactly the acknowledged nonces.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectScriptParams, ListTabsResult } from '#shared/commands/index.js';
import { DEFAULT_EXTENSION_INFO, type FakeExtension } from '../helpers/fake-extension.js';
import { HostPool } from '../helpers/fault-host.js';
import { McpProcess } from '../helpers/fault-mcp.js';

const SECONDS = Number(process.env.XIPE_LOAD_SECONDS ?? 60);
const BROWSERS = 3;
const CLIENTS = 3;
const CONCURRENCY_PER_CLIENT = 3;
const IDEA = 'load-idea';

const pool = new HostPool();
const servers: McpProcess[] = [];
let scratch: string;
let home: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-load-'));
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
  fs.mkdirSync(path.join(scratch, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
  fs.mkdirSync(path.join(scratch, 'scripts'));
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  const problems = await pool.disposeAll();
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

function browserHandlers(browserId: string, tabId: number): Record<string, (p: unknown) => unknown> {
  const tab = { id: tabId, url: `https://${browserId}.test/`, title: browserId };
  const tabs: ListTabsResult = {
    browser: { ...DEFAULT_EXTENSION_INFO.browser, browser_id: browserId },
    tabs: [{ ...tab, window_id: 1, index: 0, active: true, focused_window: true }],
  };
  return {
    list_tabs: () => tabs,
    inject_script: (params) => {
      const p = params as InjectScriptParams;
      return {
        returnValue: { code: p.code, browser: browserId, tab: p.target.tab_id ?? null },
        tab,
        method: 'userScripts',
      };
    },
  };
}

it(
  `3 browsers × 3 MCP clients for ${SECONDS} s: no lost response, no cross-talk, no error`,
  async () => {
    const browsers: Array<{ id: string; tabId: number; ext: FakeExtension }> = [];
    for (let i = 0; i < BROWSERS; i++) {
      const id = `chromium-load-${i}`;
      const tabId = 100 + i;
      const ext = await pool.start({
        home,
        handlers: browserHandlers(id, tabId),
        extension: { browser: { ...DEFAULT_EXTENSION_INFO.browser, browser_id: id } },
      });
      await ext.descriptor();
      browsers.push({ id, tabId, ext });
    }
    for (let i = 0; i < CLIENTS; i++) servers.push(await McpProcess.start({ home, workspace: scratch }));

    const errors: string[] = [];
    const saved = new Map<string, number>();
    const counts = { issued: 0, answered: 0, inject: 0, save: 0, list: 0 };
    const deadline = Date.now() + SECONDS * 1000;

    const oneCall = async (server: McpProcess, client: number, n: number): Promise<void> => {
      const nonce = `${client}-${n}-${randomBytes(6).toString('hex')}`;
      const pick = n % 10;
      counts.issued += 1;
      if (pick < 6) {
        const browser = browsers[n % BROWSERS];
        if (browser === undefined) return;
        const file = path.join(scratch, 'scripts', `${nonce}.js`);
        const code = `/* ${nonce} */ ${JSON.stringify(nonce)};\n`;
        fs.writeFileSync(file, code);
        const { isError, body } = await server.call('inject_script', {
          file_path: file,
          browser: browser.id,
          tab_id: browser.tabId,
        });
        fs.rmSync(file, { force: true });
        counts.answered += 1;
        counts.inject += 1;
        if (isError) errors.push(`inject ${nonce}: ${JSON.stringify(body)}`);
        else
          expect(body.returnValue, `inject ${nonce}`).toEqual({
            code,
            browser: browser.id,
            tab: browser.tabId,
          });
      } else if (pick < 9) {
        const { isError, body } = await server.call('save_uiux_reference', {
          version: '1.0',
          source_url: `https://load.test/${nonce}`,
          timestamp: new Date().toISOString(),
          idea_folder: IDEA,
          session_id: nonce,
          colors: [{ id: 'color-001', hex: '#abcdef' }],
        });
        counts.answered += 1;
        counts.save += 1;
        if (isError) errors.push(`save ${nonce}: ${JSON.stringify(body)}`);
        else saved.set(nonce, Number(body.session_number));
      } else {
        const { isError, body } = await server.call('list_tabs', {});
        counts.answered += 1;
        counts.list += 1;
        if (isError) errors.push(`list_tabs: ${JSON.stringify(body)}`);
        else {
          const ids = (body.tabs as Array<{ browser_id: string }>).map((t) => t.browser_id).sort();
          expect(ids).toEqual(browsers.map((b) => b.id).sort());
        }
      }
    };

    await Promise.all(
      servers.flatMap((server, client) =>
        Array.from({ length: CONCURRENCY_PER_CLIENT }, async (_, lane) => {
          for (let n = lane; Date.now() < deadline; n += CONCURRENCY_PER_CLIENT)
            await oneCall(server, client, n);
        }),
      ),
    );

    expect(errors).toEqual([]);
    expect(counts.answered).toBe(counts.issued);
    expect(counts.inject).toBeGreaterThan(0);
    expect(counts.save).toBeGreaterThan(0);
    expect(counts.list).toBeGreaterThan(0);

    // Saves from 3 servers through 3 hosts into one idea: gap-free, each nonce exactly where acknowledged.
    const sessionsDir = path.join(scratch, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references', 'sessions');
    // Numeric order: past 999 the names grow a digit (ref-session-1000.json), so text order is wrong.
    const numberOf = (name: string): number => Number(/\d+/.exec(name)?.[0]);
    const names = fs.readdirSync(sessionsDir).sort((a, b) => numberOf(a) - numberOf(b));
    expect(names.map(numberOf)).toEqual(Array.from({ length: saved.size }, (_, i) => i + 1));
    for (const name of names) {
      const session = JSON.parse(fs.readFileSync(path.join(sessionsDir, name), 'utf8')) as {
        session_id: string;
        session_number: number;
      };
      expect(saved.get(session.session_id), name).toBe(session.session_number);
    }
    for (const { ext } of browsers) expect(ext.hasExited).toBe(false);
  },
  (SECONDS + 60) * 1000,
);
