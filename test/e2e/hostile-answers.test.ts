import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';

/**
 * A page that makes a capture leave out a thousand resources, named to talk to the agent, and a
 * 1.35 MB data: URL (attack 6): the answer stays within 2 KB, counts not lists, and the page's
 * strings come back shortened and quoted.
 */
describe('capture_area on a page that makes it leave out a great deal', () => {
  let env: BrowserEnv;
  let mcp: McpSession;

  beforeAll(async () => {
    env = await BrowserEnv.start();
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  it('answers in at most 2 KB', async () => {
    const page = await env.openPage('/hostile-capture');
    const { isError, body } = await mcp.call(
      'capture_area',
      {
        idea_folder: '001. Demo Idea',
        selector: '#area',
        url_contains: '/hostile-capture',
        timeout_ms: 120_000,
      },
      150_000,
    );
    expect(isError, JSON.stringify(body).slice(0, 2000)).toBe(false);
    // The answer object (sent as text, and once more as structuredContent).
    expect(Buffer.byteLength(JSON.stringify(body)), JSON.stringify(body)).toBeLessThanOrEqual(2048);
    expect(body.skipped_count as number).toBeGreaterThan(3);
    const examples = body.skipped_examples as Array<{ src: string; reason: string }>;
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.length).toBeLessThanOrEqual(3);
    for (const example of examples) {
      expect(example.src.length).toBeLessThanOrEqual(100);
      expect(example.src.startsWith('"')).toBe(true);
    }
    await page.close();
  }, 200_000);
});
