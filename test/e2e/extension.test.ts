import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, PROTOCOL_VERSION } from '#shared/constants.js';
import { readToken } from '#shared/node/index.js';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { BridgeTestClient } from '../helpers/fake-extension.js';

/** The built extension in real Chromium: pinned ID, worker up, native link to the real host. */
describe('extension in Chromium', () => {
  let env: BrowserEnv;

  beforeAll(async () => {
    env = await BrowserEnv.start();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it('loads with the pinned extension ID and its heartbeat alarm', async () => {
    const worker = await env.serviceWorker();
    expect(await worker.evaluate(() => chrome.runtime.id)).toBe(EXTENSION_ID);
    const alarm = await worker.evaluate(() => chrome.alarms.get('heartbeat'));
    expect(alarm).toMatchObject({ name: 'heartbeat', periodInMinutes: 0.5 });
  });

  it('connects to the native host and says hello with browser and permission info', async () => {
    const { info } = await env.waitForHost();
    expect(info.protocol).toBe(PROTOCOL_VERSION);
    expect(info.origin).toBe(`chrome-extension://${EXTENSION_ID}/`);
    expect(info.extension).toMatchObject({
      id: EXTENSION_ID,
      version: '0.1.0',
      user_scripts_allowed: true,
      browser: { name: 'chromium', browser_id: expect.stringMatching(/^chromium-[0-9a-f]{12}$/) },
    });
  });

  it('answers list_tabs relayed by the host, in window/index order', async () => {
    const page = await env.openPage('/plain');
    await env.openPage('/other');
    const { descriptor } = await env.waitForHost();
    const client = await BridgeTestClient.connect(descriptor.endpoint, { token: readToken(env.home) ?? '' });
    try {
      const response = await client.request('list_tabs', {});
      expect(response.ok).toBe(true);
      const result = response.ok
        ? (response.result as {
            tabs: Array<{ url: string; window_id: number; index: number; active: boolean }>;
          })
        : null;
      const urls = result?.tabs.map((t) => t.url) ?? [];
      expect(urls).toEqual(expect.arrayContaining([env.url('/plain'), env.url('/other')]));
      const order = result?.tabs.map((t) => [t.window_id, t.index]) ?? [];
      expect(order).toEqual(
        [...order].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)),
      );
    } finally {
      await client.close();
      await page.close();
    }
  });
});
