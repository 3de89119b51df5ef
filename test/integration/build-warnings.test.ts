import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fake-extension.js';

/** `npm run build:extension` as a newcomer sees it: the build's own lines, and not one warning. */
it('the extension builds without warnings', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'xbuild-'));
  try {
    const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', out], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(run.status, run.stderr).toBe(0);
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(printed).not.toMatch(/\bwarn(ing)?\b|deprecat/i);
    expect(fs.existsSync(path.join(out, 'manifest.json'))).toBe(true);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}, 150_000);
