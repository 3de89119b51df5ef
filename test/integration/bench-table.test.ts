/**
 * `node bench/table.js`: the results table of bench/README.md comes from a report the bench
 * wrote, never typed. Run as a process on a temporary README and report, as a maintainer runs it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/chromium.js';

const SCRIPT = path.join(REPO_ROOT, 'bench', 'table.js');
const BEGIN = '<!-- bench-table:begin (written by node bench/table.js; do not edit) -->';
const END = '<!-- bench-table:end -->';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fixture(readmeText: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-bench-table-'));
  dirs.push(dir);
  const report = {
    generated_at: '2030-01-02T03:04:05.000Z',
    machine: { cpus: 2, node: 'v20.19.0' },
    quick: false,
    entries: [
      {
        name: 'inject_script_24k_vs_origin_cdp',
        unit: 'ms',
        p50: 2.3456,
        p95: 4.1,
        n: 150,
        baseline: { name: 'per-call CDP | GET /json', p50: 3.1, p95: 5 },
        ratio_p50: 0.7566,
        target: 'ratio ≤ 1.0',
      },
      { name: 'rss_host_idle', unit: 'MB', p50: 57.41, p95: 57.41, n: 1, target: '≤ 100 MB' },
      { name: 'cold_start', unit: '', p50: null, p95: null, n: 0, status: 'error: no host' },
    ],
  };
  fs.writeFileSync(path.join(dir, 'report.json'), JSON.stringify(report));
  fs.writeFileSync(path.join(dir, 'README.md'), readmeText);
  const run = () =>
    spawnSync(
      process.execPath,
      [SCRIPT, path.join(dir, 'report.json'), `--readme=${path.join(dir, 'README.md')}`],
      {
        encoding: 'utf8',
      },
    );
  return { dir, run, readme: () => fs.readFileSync(path.join(dir, 'README.md'), 'utf8') };
}

describe('bench/table.js', () => {
  it('writes every entry of the report between the markers, and only there', () => {
    const { run, readme } = fixture(`# Bench\n\nbefore\n\n${BEGIN}\nold table\n${END}\n\nafter\n`);
    const result = run();
    expect(result.status, result.stderr).toBe(0);
    const text = readme();
    expect(text.startsWith('# Bench\n\nbefore\n\n')).toBe(true);
    expect(text.endsWith(`${END}\n\nafter\n`)).toBe(true);
    expect(text).not.toContain('old table');
    expect(text).toContain(
      'From `bench/report.json` of 2030-01-02T03:04:05.000Z (2 cores, Node v20.19.0; 3 entries).',
    );
    expect(text).toContain(
      '| `inject_script_24k_vs_origin_cdp` | 2.35 ms | 4.1 | 150 | per-call CDP \\| GET /json: 3.1 | 0.757 | ratio ≤ 1.0 |  |',
    );
    expect(text).toContain('| `rss_host_idle` | 57.4 MB | 57.4 | 1 |  |  | ≤ 100 MB |  |');
    expect(text).toContain('| `cold_start` |  |  | 0 |  |  |  | error: no host |');
  });

  it('gives the same file when run again', () => {
    const { run, readme } = fixture(`${BEGIN}\n${END}\n`);
    expect(run().status).toBe(0);
    const once = readme();
    expect(run().status).toBe(0);
    expect(readme()).toBe(once);
  });

  it('refuses a README without the markers, and says what to add', () => {
    const { run, readme } = fixture('# Bench\n');
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('no table markers');
    expect(result.stderr).toContain(BEGIN);
    expect(readme()).toBe('# Bench\n');
  });
});
