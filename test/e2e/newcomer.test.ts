import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/browser-fixture.js';
import { CLI_BIN, REPO_ROOT } from '../helpers/fake-extension.js';

/**
 * The quick start as a newcomer runs it, with nothing of ours set up before: a fresh project, an
 * empty XIPE_UIUX_HOME and HOME. `init --idea` creates the first idea folder and registers the
 * project; `npm run start:headless` (through npm, as the README says) brings the browser up;
 * `doctor` passes; a save lands in the new idea; SIGTERM to npm stops the CLI, Chromium and the
 * host (the npm script execs the CLI, so the signal reaches it).
 */
const IDEA = '001. First idea';

describe('the quick start on a fresh project', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xnew-'));
  const project = path.join(root, 'project');
  const env = { ...process.env, HOME: path.join(root, 'home'), XIPE_UIUX_HOME: path.join(root, 'h') };
  fs.mkdirSync(project);
  fs.mkdirSync(env.HOME);
  let npmStart: ChildProcess | null = null;
  afterAll(() => {
    if (npmStart?.pid !== undefined && npmStart.exitCode === null) npmStart.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI_BIN, ...args], { cwd: project, env, encoding: 'utf8', timeout: 60_000 });

  it('init → start → doctor → save, then SIGTERM to `npm start` stops everything', async () => {
    const init = cli('init', '--idea', IDEA, '--client', 'claude');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain(`idea: created ${path.join(project, 'x-ipe-docs', 'ideas', IDEA)}`);
    expect(init.stdout).toContain(`workspace: registered ${project}`);
    expect(fs.existsSync(path.join(project, '.mcp.json'))).toBe(true);

    let output = '';
    npmStart = spawn('npm', ['run', '--silent', 'start:headless', '--', '--workspace', project], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npmStart.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    npmStart.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const hostPid = Number(
      await waitUntil(
        'start to say ready',
        () => /ready: extension connected \(host pid (\d+)\)/.exec(output)?.[1],
        90_000,
      ),
    );

    const doctor = cli('doctor');
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout).toContain('All links are fine.');

    const save = cli(
      'save',
      '--data',
      JSON.stringify({
        version: '1.0',
        source_url: 'https://example.com/',
        timestamp: '2025-01-15T10:30:00Z',
        idea_folder: IDEA,
        colors: [{ id: 'color-001', hex: '#1a73e8' }],
      }),
    );
    expect(save.status, save.stderr).toBe(0);
    const sessions = path.join(project, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references', 'sessions');
    expect(fs.readdirSync(sessions)).toEqual(['ref-session-001.json']);

    const exited = new Promise<number | null>((resolve) => npmStart?.once('exit', (code) => resolve(code)));
    npmStart.kill('SIGTERM');
    await exited;
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // The browser goes with the CLI, and the host with the browser's port.
    await waitUntil('the host to exit', () => (alive(hostPid) ? null : true), 20_000);
    expect(output).toMatch(/stopped \(SIGTERM\)/);
  });
});
