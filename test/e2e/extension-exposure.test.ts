import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '#shared/constants.js';
import { BrowserEnv, EXTENSION_DIST } from '../helpers/browser-fixture.js';

// With the pinned extension ID, anything web-accessible would let any site detect the extension
// (or read its files). Nothing is: every file of the package is fetched from a page, and refused.

function packageFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const rel = prefix === '' ? d.name : `${prefix}/${d.name}`;
    return d.isDirectory() ? packageFiles(path.join(dir, d.name), rel) : [rel];
  });
}

describe('the extension exposes nothing to pages', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await BrowserEnv.start();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it('refuses a page every URL of the package, by fetch and by <script>/<img>', async () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(EXTENSION_DIST, 'manifest.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.web_accessible_resources).toBeUndefined();
    const urls = [...packageFiles(EXTENSION_DIST), 'no-such-file.js'].map(
      (file) => `chrome-extension://${EXTENSION_ID}/${file}`,
    );
    expect(urls.length).toBeGreaterThan(5);
    // The extension is really there and running (its worker), so a refusal means "not exposed".
    await env.serviceWorkerTarget();
    const page = await env.openPage('/plain');
    const outcomes = await page.evaluate(async (list: string[]) => {
      const viaFetch = async (url: string) =>
        fetch(url).then(
          (r) => `fetched ${r.status}`,
          () => 'refused',
        );
      const viaElement = (url: string, tag: 'script' | 'img') =>
        new Promise<string>((resolve) => {
          const el = document.createElement(tag);
          el.onload = () => resolve(`loaded by <${tag}>`);
          el.onerror = () => resolve('refused');
          el.setAttribute('src', url);
          document.body.append(el);
        });
      const out: Record<string, string[]> = {};
      for (const url of list) {
        out[url] = [await viaFetch(url), await viaElement(url, url.endsWith('.png') ? 'img' : 'script')];
      }
      return out;
    }, urls);
    for (const url of urls) expect(outcomes[url], url).toEqual(['refused', 'refused']);
  });
});
