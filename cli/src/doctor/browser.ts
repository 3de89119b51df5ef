import type { BrowserSearch } from '../find-browser.js';
import { BRANDED_CHROME_EXPLANATION } from '../find-browser.js';
import type { CheckResult } from './types.js';

/** A Chromium-based browser that honours --load-extension (what `start` launches). */
export function checkBrowser(search: BrowserSearch): CheckResult {
  const title = 'browser found';
  if (search.found !== null) {
    const f = search.found;
    return {
      id: 'browser',
      title,
      status: 'ok',
      detail: `${f.path} (${f.version ?? f.kind}, from ${f.source})`,
    };
  }
  const branded = search.rejected.find((r) => r.candidate.kind === 'chrome');
  if (branded !== undefined) {
    return {
      id: 'browser',
      title,
      status: 'warn',
      detail: `only Google Chrome found (${branded.candidate.path}, ${branded.candidate.version ?? 'unknown version'}), which ignores --load-extension`,
      fix: BRANDED_CHROME_EXPLANATION,
    };
  }
  const rejected = search.rejected.map((r) => r.reason).join('; ');
  return {
    id: 'browser',
    title,
    status: 'fail',
    detail: `no Chromium-based browser that honours --load-extension${rejected === '' ? '' : ` (${rejected})`}; looked at ${search.looked.join(', ')}`,
    fix: 'Install Chromium (Debian/Ubuntu: `apt install chromium`; macOS: `brew install --cask chromium`) or Chrome for Testing, or set CHROME_PATH to its executable.',
  };
}
