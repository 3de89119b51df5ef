import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Integration and e2e tests run the real `bin/x-ipe-uiux.js`, which loads dist/. Build once per
 * vitest run (both projects share this process, hence the env flag). XIPE_SKIP_BUILD=1 skips it
 * when dist/ is already fresh.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(script: string): boolean {
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

export default function setup(): void {
  if (process.env.XIPE_SKIP_BUILD || process.env.XIPE_TEST_BUILD_DONE) return;
  if (!run('build:node')) {
    throw new Error(
      '`npm run build:node` failed (see above); fix it, or set XIPE_SKIP_BUILD=1 to use dist/ as it is',
    );
  }
  if (!fs.existsSync(path.join(root, 'dist', 'extension', 'manifest.json')) && !run('build:extension')) {
    console.warn('global-setup: `npm run build:extension` failed; tests needing dist/extension will fail');
  }
  process.env.XIPE_TEST_BUILD_DONE = '1';
}
