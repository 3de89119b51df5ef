import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReferencedElements } from '#shared/deep-capture/referenced-elements.js';
import { SaveResult } from '#shared/reference-data.js';
import { CLI_BIN, FakeExtension } from '../helpers/fake-extension.js';
import {
  IDEA,
  makeWorkspace,
  readJson,
  sessionFiles,
  snapshotTree,
  type TempWorkspace,
} from '../helpers/store-fixtures.js';

// save_uiux_reference with areas (docs/design.md §7): 3.0 areas and the original's html_css /
// instruction elements land in page-element-references/referenced-elements.json beside the session,
// through every way a save is made — the MCP server relaying to a real host, the MCP server alone,
// and `x-ipe-uiux save` — under the idea lock, with the store's path rules.

let home: string;
let ws: TempWorkspace;
const hosts: FakeExtension[] = [];
const clients: Client[] = [];

async function startMcp(envHome: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--workspace', ws.workspace],
    env: { ...(process.env as Record<string, string>), XIPE_UIUX_HOME: envHome },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'save-areas-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function withHost(): Promise<Client> {
  const ext = await FakeExtension.start({ home });
  await ext.descriptor();
  hosts.push(ext);
  return startMcp(home);
}

async function callSave(client: Client, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'save_uiux_reference', arguments: args }, undefined, {
    timeout: 60_000,
  });
  return JSON.parse((result.content as Array<{ text?: string }>)[0]?.text ?? 'null') as Record<
    string,
    unknown
  >;
}

/** `x-ipe-uiux save --data-file`, as a script runs it (no host, no browser). */
function cliSave(
  data: unknown,
  envHome: string,
): Promise<{ status: number | null; body: Record<string, unknown> }> {
  const file = path.join(ws.root, `data-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(data));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, 'save', '--data-file', file, '--format', 'json'], {
      cwd: ws.workspace,
      env: { ...process.env, XIPE_UIUX_HOME: envHome },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, body: JSON.parse(out.trim() || 'null') }));
  });
}

const base = (overrides: Record<string, unknown> = {}) => ({
  version: '3.0',
  source_url: 'https://shop.example.com/product/42',
  timestamp: '2026-02-16T11:20:00Z',
  idea_folder: IDEA,
  ...overrides,
});

const font = (usage: string) => ({
  type: 'font',
  src: 'https://fonts.example.com/inter.woff2',
  local_path: 'resources/inter.woff2',
  usage,
});

const area = (id: string, instruction: string) => ({
  area_id: id,
  selected_area_bounding_box: { x: 0, y: 640, width: 1280, height: 420 },
  instruction,
  screenshot: `screenshots/${id}.png`,
  elements: [
    {
      element_name: 'pricing-title',
      purpose_of_the_element: 'Names the section',
      element_details: { tag: 'h2', text_content: 'Pricing', styles: { 'font-size': '32px' } },
    },
  ],
});

/** The original's mockup save: an element with html_css (outer_html included) and an instruction. */
const mockupElement = (instruction: string) => ({
  id: 'elem-001',
  selector: 'main > .product-card',
  tag: 'div',
  bounding_box: { x: 24, y: 180, width: 360, height: 480 },
  screenshots: null,
  comment: null,
  extracted_assets: null,
  instruction,
  html_css: {
    level: 'minimal',
    outer_html: '<div onclick="buy()"><input type="password" value="hunter2"><script>x()</script></div>',
    computed_styles: { display: 'flex', 'border-radius': '12px' },
    discovered_elements: [
      { element_name: 'price-badge', element_details: { tag: 'span', text_content: '€19', styles: {} } },
    ],
  },
});

const pageDir = () => path.join(ws.refsDir(), 'page-element-references');
const readFile = () => ReferencedElements.parse(readJson(path.join(pageDir(), 'referenced-elements.json')));

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-save-areas-'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const ext of hosts.splice(0)) await ext.dispose();
  ws?.cleanup();
});

describe('save_uiux_reference with areas', () => {
  it('through the host: merges by area_id, replaces, dedupes static resources, keeps the session as sent', async () => {
    ws = makeWorkspace();
    const client = await withHost();
    const first = base({
      areas: [area('area-1', 'The pricing grid'), area('area-2', 'The FAQ')],
      static_resources: [font('Body')],
    });
    const saved = SaveResult.parse(await callSave(client, first));
    expect(saved).toMatchObject({
      session_file: 'ref-session-001.json',
      area_ids: ['area-1', 'area-2'],
      referenced_elements_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/page-element-references/referenced-elements.json`,
    });
    // The session is written as today: what was sent.
    expect(readJson(path.join(ws.workspace, saved.session_path))).toEqual({
      ...first,
      session_number: 1,
      saved_at: expect.any(String),
    });

    // area-2 replaced in place, area-1 kept; the font once, with both usages; the mockup element
    // becomes the next area.
    const second = SaveResult.parse(
      await callSave(
        client,
        base({
          version: '1.0',
          elements: [mockupElement('Keep the hover lift')],
          areas: [area('area-2', 'The FAQ, again')],
          static_resources: [font('Headings')],
        }),
      ),
    );
    expect(second.area_ids).toEqual(['area-2', 'area-3']);
    let file = readFile();
    expect(file.areas.map((a) => [a.area_id, a.instruction])).toEqual([
      ['area-1', 'The pricing grid'],
      ['area-2', 'The FAQ, again'],
      ['area-3', 'Keep the hover lift'],
    ]);
    expect(file.static_resources).toEqual([{ ...font('Body'), usage: 'Body, Headings' }]);
    expect(file.areas[2]).toMatchObject({
      from_element: { id: 'elem-001', selector: 'main > .product-card' },
      session: 'sessions/ref-session-002.json',
    });
    // Saving the same element of the same page again replaces its area.
    await callSave(client, base({ elements: [mockupElement('Keep the badge')] }));
    file = readFile();
    expect(file.areas.map((a) => a.area_id)).toEqual(['area-1', 'area-2', 'area-3']);
    expect(file.areas[2]?.instruction).toBe('Keep the badge');
    expect(sessionFiles(ws.refsDir())).toEqual([
      'ref-session-001.json',
      'ref-session-002.json',
      'ref-session-003.json',
    ]);

    // Only the session keeps outer_html; the page references never hold it.
    for (const name of fs.readdirSync(pageDir())) {
      expect(fs.readFileSync(path.join(pageDir(), name), 'utf8'), name).not.toMatch(
        /hunter2|<script|onclick/,
      );
    }
    const summary = fs.readFileSync(path.join(pageDir(), 'summarized-uiux-reference.md'), 'utf8');
    expect(summary).toContain('## area-3 — Keep the badge');
    expect(summary).toContain('pricing-title: Names the section');
  });

  it('lands the same file through the MCP server alone and through x-ipe-uiux save, serialised by the idea lock', async () => {
    ws = makeWorkspace();
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-nohost-'));
    try {
      const client = await startMcp(alone);
      // Twelve saves at once from two kinds of process: no area may be lost to a race.
      const saves = Array.from({ length: 12 }, (_, i) => {
        const data = base({
          areas: [area(`area-${i + 1}`, `area ${i + 1}`)],
          static_resources: [font(`u${i % 3}`)],
        });
        return i % 2 === 0 ? callSave(client, data) : cliSave(data, alone).then((r) => r.body);
      });
      for (const body of await Promise.all(saves)) expect(body).toMatchObject({ status: 'success' });
      const file = readFile();
      expect(file.areas.map((a) => a.area_id).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `area-${i + 1}`).sort(),
      );
      expect(file.static_resources).toHaveLength(1);
      expect(file.static_resources[0]?.usage.split(', ').sort()).toEqual(['u0', 'u1', 'u2']);
      expect(sessionFiles(ws.refsDir())).toHaveLength(12);
    } finally {
      fs.rmSync(alone, { recursive: true, force: true });
    }
  });

  it('refuses what breaks the caps or the path rules, and writes nothing', async () => {
    ws = makeWorkspace();
    const client = await withHost();
    await callSave(client, base({ areas: [area('area-1', 'kept')] }));
    const before = snapshotTree(ws.refsDir());
    const refused = async (data: Record<string, unknown>, code: string, field: string) => {
      const body = await callSave(client, data);
      expect(body, JSON.stringify(body)).toMatchObject({ error: code });
      expect(String(body.message)).toContain(field);
      expect(snapshotTree(ws.refsDir())).toEqual(before);
    };
    await refused(
      base({ static_resources: [{ ...font('x'), local_path: '../../../../.ssh/id_rsa' }] }),
      'VALIDATION_ERROR',
      'static_resources.0.local_path',
    );
    await refused(
      base({
        areas: [
          {
            ...area('area-2', ''),
            elements: [
              {
                element_name: 'logo',
                element_details: { resources: [{ type: 'svg', src: 'x', local_path: '/etc/passwd' }] },
              },
            ],
          },
        ],
      }),
      'VALIDATION_ERROR',
      'areas.0.elements.0.element_details.resources.0.local_path',
    );
    await refused(
      base({ idea_folder: '../outside', areas: [area('area-2', '')] }),
      'VALIDATION_ERROR',
      'idea_folder',
    );
    await refused(base({ areas: [{ area_id: '../area-2' }] }), 'VALIDATION_ERROR', 'areas.0.area_id');
    await refused(
      base({ areas: [area('area-2', 'x'.repeat(65_537))] }),
      'VALIDATION_ERROR',
      'areas.0.instruction',
    );
    // Every field within its own cap, the whole over the payload cap.
    const long = { element_name: 'x', element_details: { text_content: 'x'.repeat(65_000) } };
    await refused(
      base({ areas: [{ ...area('area-2', ''), elements: Array.from({ length: 11 * 17 }, () => long) }] }),
      'PAYLOAD_TOO_LARGE',
      'limit',
    );

    // A page-element-references/ that is a link is never written through.
    const outside = path.join(ws.root, 'outside');
    fs.mkdirSync(outside);
    fs.renameSync(pageDir(), path.join(ws.root, 'moved'));
    fs.symlinkSync(outside, pageDir());
    const linked = snapshotTree(ws.refsDir());
    const body = await callSave(client, base({ areas: [area('area-2', '')] }));
    expect(body).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('symbolic link'),
    });
    expect(snapshotTree(ws.refsDir())).toEqual(linked);
    expect(fs.readdirSync(outside)).toEqual([]);
    fs.rmSync(pageDir());
    fs.renameSync(path.join(ws.root, 'moved'), pageDir());

    // A file it cannot read as 3.0 is left as it is, and the save says so (no session either).
    const file = path.join(pageDir(), 'referenced-elements.json');
    fs.writeFileSync(file, '{"version":"2.0"}');
    const sessions = sessionFiles(ws.refsDir());
    const broken = await callSave(client, base({ areas: [area('area-2', '')] }));
    expect(broken).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining(file) });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":"2.0"}');
    expect(sessionFiles(ws.refsDir())).toEqual(sessions);
    // A save that does not touch the file still works.
    const plain = await callSave(
      client,
      base({ version: '1.0', colors: [{ id: 'color-001', hex: '#ffffff' }] }),
    );
    expect(plain).toMatchObject({ status: 'success' });
  });
});
