import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBridge, hostInfo, silentLogger } from '../../../test-support/fake-bridge.js';
import { createServer } from '../../server.js';
import { TOOLS } from '../registry.js';
import { singleTyped } from './tool-json-schema.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const SAVED = {
  status: 'success',
  session_file: 'ref-session-001.json',
  session_number: 1,
  session_path: 'x-ipe-docs/ideas/idea/uiux-references/sessions/ref-session-001.json',
  screenshots: [],
  reference_data_path: 'x-ipe-docs/ideas/idea/uiux-references/reference-data.json',
  idea_folder: 'idea',
  workspace: '/ws',
};

async function connect(bridge = new FakeBridge([])) {
  // The registry itself, so a tool added later is covered without touching this test.
  const server = createServer({ bridge, workspace: '/ws', logger: silentLogger(), tools: TOOLS });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'schema-test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

type Node = Record<string, unknown>;
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean'];

/** Every place in a listed schema where a property's type is not one string, by path. */
function untyped(node: Node, at: string, out: string[]): string[] {
  if ('anyOf' in node || 'oneOf' in node || 'allOf' in node) out.push(`${at}: a union`);
  const keys = Object.keys(node).filter((k) => k !== 'description');
  // `{}` is "any JSON value" (free-form data the server keeps as it is): nothing to type.
  if (keys.length > 0 && !TYPES.includes(node.type as string))
    out.push(`${at}: type ${JSON.stringify(node.type)}`);
  const props = (node.properties ?? {}) as Record<string, Node>;
  for (const [key, value] of Object.entries(props)) untyped(value, `${at}.${key}`, out);
  if (typeof node.items === 'object' && node.items !== null) untyped(node.items as Node, `${at}[]`, out);
  if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null)
    untyped(node.additionalProperties as Node, `${at}{}`, out);
  return out;
}

describe('every tool’s input JSON Schema, as tools/list emits it', () => {
  it('gives every property one string `type` (top level: always; nested: wherever a value is constrained)', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      const schema = tool.inputSchema as Node;
      expect(schema.type).toBe('object');
      const props = (schema.properties ?? {}) as Record<string, Node>;
      for (const [key, value] of Object.entries(props)) {
        expect(TYPES, `${tool.name}.${key} has type ${JSON.stringify(value.type)}`).toContain(value.type);
      }
      expect(untyped(schema, tool.name, [])).toEqual([]);
    }
  });

  it('types the save sections as the Inspector needs to parse them: "array" and "object"', async () => {
    const { tools } = await (await connect()).listTools();
    const save = tools.find((t) => t.name === 'save_uiux_reference');
    const props = save?.inputSchema.properties as Record<string, Node>;
    expect(props.colors?.type).toBe('array');
    expect(props.elements?.type).toBe('array');
    expect(props.design_tokens?.type).toBe('object');
    expect(props.session_id).toMatchObject({ type: 'string', description: '(or a number)' });
  });

  it('collapses nullable and nested unions, and drops what restates JSON defaults', () => {
    expect(
      singleTyped({
        anyOf: [
          {
            anyOf: [
              { type: 'array', items: {} },
              { type: 'object', additionalProperties: {} },
            ],
          },
          { type: 'null' },
        ],
      }),
    ).toEqual({ type: 'array', items: {}, description: '(or an object)' });
    expect(singleTyped({ type: ['string', 'null'], maxLength: 65_536 })).toEqual({ type: 'string' });
    expect(singleTyped({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toEqual({
      type: 'integer',
      minimum: 0,
    });
  });
});

describe('arguments sent as JSON text (what a client does with an untyped property)', () => {
  const base = {
    version: '1.0',
    source_url: 'https://example.com/',
    timestamp: '2025-01-15T10:30:00Z',
    idea_folder: 'idea',
  };
  const colors = [{ id: 'color-001', hex: '#1a73e8', rgb: '26, 115, 232', hsl: null }];

  it('accepts a section whose text parses to the right shape, and null where it is optional', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => SAVED }]);
    const client = await connect(bridge);
    const result = await client.callTool({
      name: 'save_uiux_reference',
      arguments: { ...base, colors: JSON.stringify(colors), design_tokens: null, auth_url: null },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'success' });
    expect(bridge.sent[0]?.params).toMatchObject({ data: { colors, design_tokens: null } });
  });

  it('refuses text that is not JSON of that kind, saying it was JSON text', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => SAVED }]);
    const client = await connect(bridge);
    for (const sent of ['[{"id": "color-001",', '{"id": "color-001"}']) {
      const result = await client.callTool({
        name: 'save_uiux_reference',
        arguments: { ...base, colors: sent },
      });
      expect(result.isError).toBe(true);
      const body = result.structuredContent as { error: string; message: string };
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.message).toMatch(
        /^Invalid arguments for save_uiux_reference: colors: expected an array of colours, got "/,
      );
      expect(body.message).toContain('You sent JSON text for `colors`');
    }
    expect(bridge.sent).toEqual([]);
  });
});

describe('the size of the catalog', () => {
  it('keeps tools/list small (the figure is printed for the report)', async () => {
    const { tools } = await (await connect()).listTools();
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    const save = Buffer.byteLength(JSON.stringify(tools.find((t) => t.name === 'save_uiux_reference')));
    process.stderr.write(`tools/list: ${bytes} bytes (save_uiux_reference ${save})\n`);
    // 19.4 KB (save_uiux_reference 8.8 KB) for nine tools before descriptions were trimmed and the
    // schemas shaped; 16.6 KB for ten with compare_with_reference (2.4 KB) added.
    expect(bytes).toBeLessThan(17_000);
    expect(save).toBeLessThan(5_500);
  });
});
