import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeBridge, silentLogger } from '../../test-support/fake-bridge.js';
import { createServer } from '../server.js';
import { AGENT_GUIDE_MARKDOWN } from './guide.js';
import type { ResourceChanges } from './ideas-watcher.js';
import { GUIDE_URI, IDEAS_URI, referenceDataUri } from './registry.js';

let root: string;
let ws: string;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-res-srv-'));
  ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', '018. Feature-UIUX Reference', 'uiux-references'), {
    recursive: true,
  });
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', '019. Empty'));
  fs.writeFileSync(
    path.join(
      ws,
      'x-ipe-docs',
      'ideas',
      '018. Feature-UIUX Reference',
      'uiux-references',
      'reference-data.json',
    ),
    '{"version":"1.0","colors":[{"id":"color-001"}]}',
  );
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  fs.rmSync(root, { recursive: true, force: true });
});

class ManualChanges implements ResourceChanges {
  readonly listeners = new Set<() => void>();
  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  fire() {
    for (const l of this.listeners) l();
  }
}

async function connect(resourceChanges?: ResourceChanges) {
  const server = createServer({
    bridge: new FakeBridge([]),
    workspace: ws,
    logger: silentLogger(),
    ...(resourceChanges !== undefined ? { resourceChanges } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

const text = (result: Awaited<ReturnType<Client['readResource']>>): string => {
  const first = result.contents[0];
  return first !== undefined && 'text' in first ? first.text : '';
};

describe('MCP resources', () => {
  it('declares resources and tools with listChanged', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true },
    });
  });

  it('lists the ideas list, the guide, each existing reference data, and the template', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      IDEAS_URI,
      GUIDE_URI,
      'xipe://ideas/018.%20Feature-UIUX%20Reference/reference-data',
    ]);
    expect(resources.every((r) => typeof r.mimeType === 'string')).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'xipe://ideas/{idea}/reference-data',
      'xipe://ideas/{idea}/referenced-elements',
      'xipe://ideas/{idea}/verify-reports',
    ]);
  });

  it("lists and reads an idea's comparison reports (newest last, first five differences)", async () => {
    const verify = path.join(
      ws,
      'x-ipe-docs',
      'ideas',
      '018. Feature-UIUX Reference',
      'uiux-references',
      'verify',
    );
    for (const [n, count] of [
      [1, 7],
      [2, 1],
    ] as const) {
      const dir = path.join(verify, `area-1-${n}`);
      fs.mkdirSync(dir, { recursive: true });
      const differences = Array.from({ length: count }, (_, i) => ({
        kind: 'style',
        text: `difference ${i}`,
      }));
      fs.writeFileSync(
        path.join(dir, 'report.json'),
        JSON.stringify({ scores: { pixel: n / 2 }, differences }),
      );
      fs.utimesSync(dir, n * 1000, n * 1000);
    }
    const client = await connect();
    const { resources } = await client.listResources();
    const uri = 'xipe://ideas/018.%20Feature-UIUX%20Reference/verify-reports';
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = JSON.parse(text(await client.readResource({ uri })));
    expect(read.reports.map((r: { id: string }) => r.id)).toEqual(['area-1-1', 'area-1-2']);
    expect(read.reports[0]).toMatchObject({ scores: { pixel: 0.5 }, difference_count: 7 });
    expect(read.reports[0].differences).toHaveLength(5);
    expect(read.reports[1].files.report_md).toBe(path.join(fs.realpathSync(verify), 'area-1-2', 'report.md'));
  });

  it('reads the ideas list, one idea’s reference data and the guide', async () => {
    const client = await connect();
    const list = JSON.parse(text(await client.readResource({ uri: IDEAS_URI })));
    expect(list.ideas).toEqual([
      {
        name: '018. Feature-UIUX Reference',
        has_references: true,
        session_count: 0,
        reference_data: referenceDataUri('018. Feature-UIUX Reference'),
        referenced_elements: null,
      },
      {
        name: '019. Empty',
        has_references: false,
        session_count: 0,
        reference_data: null,
        referenced_elements: null,
      },
    ]);
    const data = await client.readResource({ uri: referenceDataUri('018. Feature-UIUX Reference') });
    expect(data.contents[0]?.mimeType).toBe('application/json');
    expect(JSON.parse(text(data))).toEqual({ version: '1.0', colors: [{ id: 'color-001' }] });
    expect(text(await client.readResource({ uri: GUIDE_URI }))).toBe(AGENT_GUIDE_MARKDOWN);
  });

  it('answers a missing idea or file with "resource not found" carrying our error object', async () => {
    const client = await connect();
    const missing = await client
      .readResource({ uri: referenceDataUri('404. Gone') })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect(missing).toMatchObject({ code: -32002, data: { error: 'IDEA_NOT_FOUND' } });
    expect((missing as McpError).message).toContain('Idea folder not found: 404. Gone');
    const empty = await client.readResource({ uri: referenceDataUri('019. Empty') }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: -32002, data: { error: 'FILE_NOT_FOUND' } });
    const traversal = await client
      .readResource({ uri: 'xipe://ideas/..%2F..%2F..%2Fetc/reference-data' })
      .catch((e: unknown) => e);
    expect(traversal).toMatchObject({ code: -32602, data: { error: 'VALIDATION_ERROR' } });
  });

  it('sends notifications/resources/list_changed when the workspace’s ideas change', async () => {
    const changes = new ManualChanges();
    const client = await connect(changes);
    let notified = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      notified += 1;
    });
    changes.fire();
    await expect.poll(() => notified).toBe(1);
  });

  it('stops listening for changes when the server closes', async () => {
    const changes = new ManualChanges();
    await connect(changes);
    expect(changes.listeners.size).toBe(1);
    for (const close of closers.splice(0)) await close();
    expect(changes.listeners.size).toBe(0);
  });
});
