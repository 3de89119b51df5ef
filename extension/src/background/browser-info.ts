import type { BrowserInfo } from '#shared/index.js';
import { browser } from '../platform/browser.js';

/**
 * Who we run in. `browser_id` is stable per profile: `<name>-<random id>`, the id generated once
 * and kept in storage.local, so an MCP server can route to this profile across restarts.
 */

const INSTANCE_KEY = 'browser_instance_id';

interface UaBrand {
  brand: string;
  version: string;
}
interface UaData {
  brands?: UaBrand[];
  getHighEntropyValues?: (hints: string[]) => Promise<{ fullVersionList?: UaBrand[] }>;
}

/** Brands in order of specificity: Edge, Brave and Opera also list "Chromium". */
const BRAND_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/edge/i, 'edge'],
  [/brave/i, 'brave'],
  [/opera|opr/i, 'opera'],
  [/vivaldi/i, 'vivaldi'],
  [/google chrome/i, 'chrome'],
  [/chromium/i, 'chromium'],
];

export function browserNameFromBrands(brands: readonly UaBrand[]): { name: string; brand: UaBrand | null } {
  for (const [pattern, name] of BRAND_NAMES) {
    const brand = brands.find((b) => pattern.test(b.brand));
    if (brand !== undefined) return { name, brand };
  }
  return { name: 'chromium', brand: null };
}

let cached: Promise<BrowserInfo> | null = null;

export function browserInfo(): Promise<BrowserInfo> {
  cached ??= loadBrowserInfo().catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

async function loadBrowserInfo(): Promise<BrowserInfo> {
  const uaData = (navigator as Navigator & { userAgentData?: UaData }).userAgentData;
  let brands = uaData?.brands ?? [];
  try {
    const high = await uaData?.getHighEntropyValues?.(['fullVersionList']);
    if (high?.fullVersionList !== undefined && high.fullVersionList.length > 0) brands = high.fullVersionList;
  } catch {
    // low-entropy brands are enough
  }
  const { name, brand } = browserNameFromBrands(brands);
  const uaVersion = /Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1];
  const version = brand?.version ?? uaVersion ?? 'unknown';

  const stored = await browser.storage.local.get(INSTANCE_KEY);
  let instance = stored[INSTANCE_KEY];
  if (typeof instance !== 'string' || instance === '') {
    instance = crypto.randomUUID().replaceAll('-', '').slice(0, 12);
    await browser.storage.local.set({ [INSTANCE_KEY]: instance });
  }
  return { browser_id: `${name}-${instance}`, name, version, user_agent: navigator.userAgent };
}
