import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { splitIntoChunks } from '#shared/chunking.js';
import { EXTENSION_CHUNK_CHARS } from '#shared/constants.js';
import { SaveResult } from '#shared/reference-data.js';
import { CLI_BIN, FakeExtension } from '../helpers/fake-extension.js';
import { expectedSession, originalShapes } from '../helpers/original-shapes.js';
import {
  b64,
  IDEA,
  makePng,
  makeWorkspace,
  pngOfAbout,
  readJson,
  referenceData,
  sessionFiles,
  type TempWorkspace,
} from '../helpers/store-fixtures.js';

// save_uiux_reference end to end: SDK client → `x-ipe-uiux mcp` (real process) → bridge socket →
// `x-ipe-uiux host` (real process) → idea folder. The extension side is the fake one (no browser).

const MiB = 1024 * 1024;

let home: string;
let ws: TempWorkspace;
const hosts: FakeExtension[] = [];
const clients: Client[] = [];

async function startHost(): Promise<FakeExtension> {
  const ext = await FakeExtension.start({ home });
  await ext.descriptor();
  hosts.push(ext);
  return ext;
}

async function startMcp(envHome = home): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--workspace', ws.workspace],
    env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: envHome },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'save-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolOutcome {
  isError: boolean;
  body: Record<string, unknown>;
}

async function callSave(client: Client, args: Record<string, unknown>): Promise<ToolOutcome> {
  const result = await client.callTool({ name: 'save_uiux_reference', arguments: args }, undefined, {
    timeout: 60_000,
  });
  const content = result.content as Array<{ type: string; text?: string }>;
  const body = JSON.parse(content[0]?.text ?? 'null') as Record<string, unknown>;
  expect(result.structuredContent).toEqual(body);
  return { isError: result.isError === true, body };
}

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-save-'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const ext of hosts.splice(0)) {
    await ext.dispose();
    expect(ext.stdoutProblems).toEqual([]);
  }
  ws?.cleanup();
});

describe('save_uiux_reference through the real MCP server and host', () => {
  it('saves a valid session with screenshots and returns the success object', async () => {
    ws = makeWorkspace();
    await startHost();
    const client = await startMcp();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('save_uiux_reference');
    const png = makePng(4, 3, 11);
    const { isError, body } = await callSave(
      client,
      referenceData({
        elements: [
          { id: 'elem-001', selector: 'main', screenshots: { full_page: b64(png), element_crop: null } },
        ],
      }),
    );
    expect(isError).toBe(false);
    const result = SaveResult.parse(body);
    expect(result).toMatchObject({
      status: 'success',
      session_file: 'ref-session-001.json',
      session_number: 1,
    });
    expect(result.screenshots).toEqual([
      `x-ipe-docs/ideas/${IDEA}/uiux-references/screenshots/full-page-001.png`,
    ]);
    expect(fs.readFileSync(path.join(ws.workspace, result.screenshots[0] ?? '')).equals(png)).toBe(true);
    const session = readJson(path.join(ws.workspace, result.session_path)) as {
      elements: { screenshots: unknown }[];
    };
    expect(session.elements[0]?.screenshots).toEqual({
      full_page: 'screenshots/full-page-001.png',
      element_crop: null,
    });
    expect(readJson(path.join(ws.workspace, result.reference_data_path))).toMatchObject({
      idea_folder: IDEA,
    });
  });

  it('reports errors in the contract shape: validation (nothing sent), idea not found, payload caps', async () => {
    ws = makeWorkspace();
    await startHost();
    const client = await startMcp();

    const invalid = await callSave(client, referenceData({ timestamp: 'yesterday' }));
    expect(invalid).toMatchObject({
      isError: true,
      body: { error: 'VALIDATION_ERROR', tool_name: 'save_uiux_reference' },
    });
    expect(invalid.body.message).toContain('timestamp');

    const missing = await callSave(client, referenceData({ idea_folder: 'nope' }));
    expect(missing.body).toMatchObject({
      error: 'IDEA_NOT_FOUND',
      message: expect.stringMatching(/^Idea folder not found: nope\. Looked in /),
    });

    const sized = (bytes: number) =>
      referenceData({
        elements: [
          {
            id: 'elem-001',
            selector: 'a',
            screenshots: { full_page: b64(pngOfAbout((bytes * 3) / 4 - 4096)) },
          },
        ],
      });
    const ok = await callSave(client, sized(9.5 * MiB));
    expect(ok.isError).toBe(false);
    const tooBig = await callSave(client, sized(10.5 * MiB));
    expect(tooBig.body).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 10 * MiB } });
    expect(sessionFiles(ws.refsDir())).toEqual(['ref-session-001.json']);
  });

  it('the toolbar stages its images on their own, chunked past 64 MiB, and saves sessions of any size', async () => {
    ws = makeWorkspace();
    const ext = await startHost();
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ workspaces: [ws.workspace] }));
    try {
      // An agent cannot stage: base64: values and file paths are its ways.
      const bridge = await ext.connectClient();
      const agent = await bridge.request('stage_image', {
        image_id: randomUUID(),
        png_base64: b64(makePng()).slice(7),
      });
      expect(agent).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
      await bridge.close();

      // A 49 MiB PNG is 65 MiB of base64: over the extension→host cap for one message, so the
      // extension sends it in chunks (as native-port.ts does), which the host reassembles.
      const full = pngOfAbout(49 * MiB, 7);
      const crop = makePng(40, 30, 3);
      const fullId = randomUUID();
      const json = JSON.stringify({
        type: 'request',
        id: 'stage-full',
        command: 'stage_image',
        params: { image_id: fullId, png_base64: full.toString('base64') },
      });
      expect(json.length).toBeGreaterThan(64 * MiB);
      for (const chunk of splitIntoChunks(json, 'x1', EXTENSION_CHUNK_CHARS)) ext.send(chunk);
      const staged = await ext.inbox.waitFor((m) => m.type === 'response' && m.id === 'stage-full', {
        take: true,
        timeoutMs: 60_000,
      });
      expect(staged).toMatchObject({ ok: true, result: { image_id: fullId, bytes: full.length } });
      const cropId = randomUUID();
      expect(
        await ext.request('stage_image', { image_id: cropId, png_base64: crop.toString('base64') }),
      ).toMatchObject({
        ok: true,
        result: { width: 40, height: 30 },
      });

      const data = referenceData({
        elements: [
          {
            id: 'elem-001',
            selector: 'html',
            screenshots: { full_page: `staged:${fullId}`, element_crop: null },
          },
          {
            id: 'elem-002',
            selector: 'a',
            screenshots: { full_page: null, element_crop: `staged:${cropId}` },
          },
        ],
      });
      const saved = await ext.request('save_reference', { data }, { timeoutMs: 60_000 });
      expect(saved).toMatchObject({ ok: true, result: { session_number: 1 } });
      const session = readJson(path.join(ws.refsDir(), 'sessions', 'ref-session-001.json')) as {
        elements: Array<{ screenshots: Record<string, string | null> }>;
      };
      expect(session.elements.map((e) => e.screenshots)).toEqual([
        { full_page: 'screenshots/full-page-001.png', element_crop: null },
        { full_page: null, element_crop: 'screenshots/elem-001-crop.png' },
      ]);
      expect(fs.readFileSync(path.join(ws.refsDir(), 'screenshots', 'full-page-001.png')).equals(full)).toBe(
        true,
      );
      expect(fs.readFileSync(path.join(ws.refsDir(), 'screenshots', 'elem-001-crop.png')).equals(crop)).toBe(
        true,
      );

      // A staged image is taken by one save: naming it again says what is wrong and writes nothing.
      const again = await ext.request('save_reference', { data });
      expect(again).toMatchObject({
        ok: false,
        error: {
          code: 'VALIDATION_ERROR',
          details: { issues: [{ field: 'elements.0.screenshots.full_page' }] },
        },
      });
      expect(sessionFiles(ws.refsDir())).toEqual(['ref-session-001.json']);
    } finally {
      fs.rmSync(path.join(home, 'config.json'));
    }
  });

  it('the host enforces the cap and the workspace rules itself (bridge and toolbar requests)', async () => {
    ws = makeWorkspace();
    const ext = await startHost();
    const bridge = await ext.connectClient();
    const big = referenceData({
      elements: [{ id: 'elem-001', selector: 'a', screenshots: { full_page: b64(pngOfAbout(8 * MiB)) } }],
    });
    const refused = await bridge.request('save_reference', { workspace: ws.workspace, data: big });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    await bridge.close();

    // The toolbar (extension) may only save into registered workspaces.
    const noneRegistered = await ext.request('save_reference', { data: referenceData() });
    expect(noneRegistered).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ workspaces: [ws.workspace] }));
    const saved = await ext.request('save_reference', { data: referenceData() });
    expect(saved).toMatchObject({ ok: true, result: { session_number: 1, workspace: ws.workspace } });
    const elsewhere = await ext.request('save_reference', { workspace: ws.root, data: referenceData() });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    const ideas = await ext.request('list_ideas', {});
    expect(ideas).toMatchObject({
      ok: true,
      result: {
        workspaces: [{ path: ws.workspace, ideas: [{ name: IDEA, has_references: true, session_count: 1 }] }],
      },
    });
    fs.rmSync(path.join(home, 'config.json'));
  });

  it("saves the original producers' shapes with no browser and no host running; browser tools still say how to fix it", async () => {
    ws = makeWorkspace();
    const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-nohost-'));
    try {
      const client = await startMcp(emptyHome);
      for (const { name, data } of originalShapes()) {
        const { isError, body } = await callSave(client, data);
        expect(isError, `${name}: ${JSON.stringify(body)}`).toBe(false);
        const result = SaveResult.parse(body);
        const session = readJson(path.join(ws.workspace, result.session_path));
        expect(session, name).toEqual(expectedSession(data, result.screenshots, result.session_number));
      }
      expect(sessionFiles(ws.refsDir())).toHaveLength(originalShapes().length);
      // Local saves keep the contract's errors.
      const missing = await callSave(client, referenceData({ idea_folder: 'nope' }));
      expect(missing.body).toMatchObject({
        error: 'IDEA_NOT_FOUND',
        message: expect.stringMatching(/^Idea folder not found: nope\. Looked in /),
      });
      // Commands that need the browser still answer at once with where it looked and the fix.
      const tabs = await client.callTool({ name: 'list_tabs', arguments: {} });
      const body = JSON.parse((tabs.content as Array<{ text: string }>)[0]?.text ?? 'null');
      expect(body.error).toBe('BACKEND_UNREACHABLE');
      expect(body.message).toContain(emptyHome);
      expect(body.message).toMatch(/x-ipe-uiux (start|doctor)/);
    } finally {
      fs.rmSync(emptyHome, { recursive: true, force: true });
    }
  });

  it('20 saves racing a host that starts up meanwhile stay unique and gap-free', async () => {
    ws = makeWorkspace();
    const raceHome = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-race-'));
    const noHostHome = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-nohost-'));
    try {
      // One server sees the host's home (it saves locally until the host is up, then through it);
      // the other never sees a host, so it keeps saving locally in its own process throughout.
      const [withHost, alone] = await Promise.all([startMcp(raceHome), startMcp(noHostHome)]);
      // ~600 KB screenshots make each save take long enough for writers to overlap.
      const shot = b64(pngOfAbout(600_000));
      const save = (client: Client, i: number) =>
        callSave(
          client,
          referenceData({
            session_id: `race-${i}`,
            source_url: `https://example.com/${i}`,
            elements: [{ id: 'elem-001', selector: 'main', screenshots: { full_page: shot } }],
          }),
        );
      // Ten saves while the host starts; ten more the moment its descriptor appears.
      const starting = Array.from({ length: 10 }, (_, i) => save(i % 2 === 0 ? withHost : alone, i));
      const ext = await FakeExtension.start({ home: raceHome });
      hosts.push(ext);
      await ext.descriptor();
      const started = Array.from({ length: 10 }, (_, i) => save(i % 2 === 0 ? withHost : alone, 10 + i));
      const outcomes = await Promise.all([...starting, ...started]);
      expect(outcomes.filter((o) => o.isError)).toEqual([]);
      const numbers = outcomes.map((o) => o.body.session_number as number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(sessionFiles(ws.refsDir())).toEqual(
        Array.from({ length: 20 }, (_, i) => `ref-session-${String(i + 1).padStart(3, '0')}.json`),
      );
      for (const file of sessionFiles(ws.refsDir())) readJson(path.join(ws.refsDir(), 'sessions', file));
      const shots = fs.readdirSync(path.join(ws.refsDir(), 'screenshots')).filter((n) => n.endsWith('.png'));
      expect(shots.sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `full-page-${String(i + 1).padStart(3, '0')}.png`),
      );
      const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as { sessions: unknown[] };
      expect(merged.sessions).toHaveLength(20);
      // Both kinds of writer took part: the host logs each save it made.
      const byHost = ext.logEntries().filter((e) => e.msg === 'reference saved').length;
      expect(byHost, 'saves made by the host').toBeGreaterThanOrEqual(5);
      expect(byHost, 'saves made locally').toBeLessThanOrEqual(15);
    } finally {
      fs.rmSync(raceHome, { recursive: true, force: true });
      fs.rmSync(noHostHome, { recursive: true, force: true });
    }
  });

  it('3 MCP servers × 10 parallel saves give sessions 001–030 with no gap, every file valid JSON', async () => {
    ws = makeWorkspace();
    await startHost();
    const servers = await Promise.all([startMcp(), startMcp(), startMcp()]);
    const outcomes = await Promise.all(
      servers.flatMap((client, s) =>
        Array.from({ length: 10 }, (_, i) =>
          callSave(
            client,
            referenceData({ session_id: `server-${s}-${i}`, source_url: `https://example.com/${s}/${i}` }),
          ),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.isError)).toEqual([]);
    const numbers = outcomes.map((o) => o.body.session_number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const files = sessionFiles(ws.refsDir());
    expect(files).toEqual(
      Array.from({ length: 30 }, (_, i) => `ref-session-${String(i + 1).padStart(3, '0')}.json`),
    );
    for (const file of files) readJson(path.join(ws.refsDir(), 'sessions', file));
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as {
      sessions: unknown[];
      source_urls: unknown[];
    };
    expect(merged.sessions).toHaveLength(30);
    expect(merged.source_urls).toHaveLength(30);
  });

  it('finds a restarted host again without restarting the MCP server', async () => {
    ws = makeWorkspace();
    const first = await startHost();
    const client = await startMcp();
    expect((await callSave(client, referenceData())).body.session_number).toBe(1);
    await first.close();
    await startHost();
    const again = await callSave(client, referenceData());
    expect(again).toMatchObject({ isError: false, body: { session_number: 2 } });
  });

  it('a host SIGKILLed at random moments during a save loop leaves only complete files; numbering continues', async () => {
    ws = makeWorkspace();
    const png = makePng(400, 400, 3); // ~480 KB per screenshot: each save takes long enough to be hit
    const data = referenceData({
      elements: [
        { id: 'elem-001', selector: 'a', screenshots: { full_page: b64(png), element_crop: b64(png) } },
      ],
    });
    for (let round = 0; round < 5; round++) {
      const ext = await startHost();
      const bridge = await ext.connectClient();
      let stop = false;
      let firstSaved: () => void = () => undefined;
      const saved = new Promise<void>((resolve) => {
        firstSaved = resolve;
      });
      const loop = (async () => {
        while (!stop) {
          const res = await bridge
            .request('save_reference', { workspace: ws.workspace, data })
            .catch(() => null);
          if (res === null || !res.ok) break;
          firstSaved();
        }
      })();
      // Kill at a random moment once the loop is saving (mid-write most of the time).
      await saved;
      await new Promise((r) => setTimeout(r, Math.random() * 120));
      ext.child.kill('SIGKILL');
      await ext.exited;
      stop = true;
      bridge.socket.destroy();
      await loop;
      hosts.splice(hosts.indexOf(ext), 1);
      await ext.dispose();
      expectOnlyCompleteFiles();
    }
    const before = sessionFiles(ws.refsDir()).filter((n) => n.startsWith('ref-session-'));
    expect(before.length).toBeGreaterThan(0);
    await startHost();
    const client = await startMcp();
    const next = await callSave(client, referenceData());
    expect(next).toMatchObject({ isError: false, body: { session_number: before.length + 1 } });
    expectOnlyCompleteFiles();
  });
});

function expectOnlyCompleteFiles(): void {
  const refs = ws.refsDir();
  const sessions = sessionFiles(refs).filter((n) => /^ref-session-\d{3,}\.json$/.test(n));
  expect(sessions).toEqual(sessions.map((_, i) => `ref-session-${String(i + 1).padStart(3, '0')}.json`));
  for (const name of fs.readdirSync(path.join(refs, 'sessions'))) {
    if (sessions.includes(name)) readJson(path.join(refs, 'sessions', name));
    else expect(name.startsWith('.tmp-')).toBe(true);
  }
  for (const name of fs.readdirSync(path.join(refs, 'screenshots'))) {
    if (name.startsWith('.tmp-')) continue;
    const bytes = fs.readFileSync(path.join(refs, 'screenshots', name));
    expect(bytes.subarray(-8, -4).toString('latin1')).toBe('IEND');
  }
  if (fs.existsSync(path.join(refs, 'reference-data.json'))) readJson(path.join(refs, 'reference-data.json'));
}
