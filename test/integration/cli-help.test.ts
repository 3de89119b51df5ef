import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_COMMANDS } from '#shared/node/cli-commands.js';
import { CLI_BIN, REPO_ROOT } from '../helpers/fake-extension.js';

// `x-ipe-uiux <command> --help` for every command, from the real entry point: help, exit 0, and
// nothing else happens (no browser, no server, no file written).

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-help-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI_BIN, ...args], {
    env: { ...process.env, XIPE_UIUX_HOME: home, HOME: home },
    cwd: home,
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('x-ipe-uiux --help', () => {
  it.each(CLI_COMMANDS.map((c) => [c.name, c]))(
    '%s --help prints its usage and options and exits 0',
    (name, spec) => {
      for (const flag of ['--help', '-h']) {
        const r = run(name, flag);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^Usage: x-ipe-uiux ${name}`));
        for (const option of Object.keys(spec.options)) expect(r.stdout).toContain(`--${option}`);
        expect(r.stderr).toBe('');
      }
      expect(fs.readdirSync(home)).toEqual([]);
    },
  );

  it('lists every command, and points a mistake at the command’s help (exit 2)', () => {
    const top = run('--help');
    expect(top.status).toBe(0);
    for (const c of CLI_COMMANDS) expect(top.stdout).toContain(`  ${c.name} `);
    const wrong = run('start', '--headles');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(
      'x-ipe-uiux start: unknown option --headles\nRun `x-ipe-uiux start --help` for usage.\n',
    );
    expect(run('doctor', '--workspace').stderr).toContain('--workspace needs a value');
  });

  it('help <command> is the command’s --help, and --version prints the package version', () => {
    for (const c of CLI_COMMANDS) {
      const r = run('help', c.name);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(run(c.name, '--help').stdout);
    }
    const unknown = run('help', 'nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^x-ipe-uiux help: unknown command 'nope'/);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v', 'version']) expect(run(flag).stdout).toBe(`${pkg.version}\n`);
  });

  it('says what --token-in-path puts in the URL: a secret derived from the token, not the token', () => {
    const help = run('mcp', '--help').stdout;
    expect(help).toContain('/<secret>/mcp');
    expect(help).toContain('HMAC of the token');
    expect(help).not.toContain('/<token>/mcp');
  });
});
