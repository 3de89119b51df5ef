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

/** Newest modification time of a file, or of the files below a folder (0 when missing). */
function newestMtime(p: string): number {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

/** dist/extension is missing or older than something it is built from. */
function extensionStale(): boolean {
  const built = newestMtime(path.join(root, 'dist', 'extension', 'manifest.json'));
  const sources = ['extension', 'shared', 'manifest.json', 'vite.config.ts'];
  return built === 0 || sources.some((p) => newestMtime(path.join(root, p)) > built);
}

export default function setup(): void {
  if (process.env.XIPE_SKIP_BUILD || process.env.XIPE_TEST_BUILD_DONE) return;
  if (!run('build:node')) {
    throw new Error(
      '`npm run build:node` failed (see above); fix it, or set XIPE_SKIP_BUILD=1 to use dist/ as it is',
    );
  }
  if (extensionStale() && !run('build:extension')) {
    console.warn('global-setup: `npm run build:extension` failed; tests needing dist/extension will fail');
  }
  process.env.XIPE_TEST_BUILD_DONE = '1';
}
