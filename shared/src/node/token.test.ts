import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { XipeError } from '../errors.js';
import { tokenPath } from './paths.js';
import { ensureToken, readToken, tokenFileProblem } from './token.js';

const TOKEN = 'a'.repeat(64);
const me = process.getuid?.() ?? 0;
const mode = (file: string): number => fs.statSync(file).mode & 0o777;

let home: string;
let file: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-token-'));
  file = tokenPath(home);
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(home, { recursive: true, force: true });
});

function plant(bits: number, content = `${TOKEN}\n`): void {
  fs.writeFileSync(file, content, { mode: 0o600 });
  fs.chmodSync(file, bits);
}

function refusal(run: () => unknown): XipeError {
  try {
    run();
  } catch (err) {
    if (err instanceof XipeError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('tokenFileProblem', () => {
  it('accepts 0600 and 0400 owned by us; flags any group/other bit, and another owner first', () => {
    expect(tokenFileProblem({ mode: 0o100600, uid: 7 }, 7)).toBeNull();
    expect(tokenFileProblem({ mode: 0o100400, uid: 7 }, 7)).toBeNull();
    for (const bits of [0o640, 0o604, 0o620, 0o602, 0o610, 0o601, 0o666, 0o777]) {
      expect(tokenFileProblem({ mode: 0o100000 | bits, uid: 7 }, 7)).toEqual({
        kind: 'loose-mode',
        mode: bits,
      });
    }
    expect(tokenFileProblem({ mode: 0o100644, uid: 8 }, 7)).toEqual({
      kind: 'foreign-owner',
      owner: 8,
      uid: 7,
    });
  });
});

describe('readToken / ensureToken and the token file mode', () => {
  it('creates a missing token with mode 0600 and reads it back without a warning', () => {
    const onRepaired = vi.fn();
    const token = ensureToken(home, { onRepaired });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mode(file)).toBe(0o600);
    expect(readToken(home, { onRepaired })).toBe(token);
    expect(onRepaired).not.toHaveBeenCalled();
  });

  it('repairs group/other bits on a file we own to 0600, says so once, and still uses the token', () => {
    for (const bits of [0o644, 0o660, 0o604, 0o666]) {
      plant(bits);
      const onRepaired = vi.fn();
      expect(readToken(home, { onRepaired })).toBe(TOKEN);
      expect(mode(file)).toBe(0o600);
      expect(onRepaired).toHaveBeenCalledTimes(1);
      const message = String(onRepaired.mock.calls[0]?.[0]);
      expect(message).toContain(file);
      expect(message).toContain(`mode 0${bits.toString(8)}`);
      expect(message).toContain('0600');
      expect(message).not.toContain(TOKEN);
      // Repaired: the next read is quiet.
      expect(ensureToken(home, { onRepaired })).toBe(TOKEN);
      expect(onRepaired).toHaveBeenCalledTimes(1);
      fs.rmSync(file);
    }
  });

  it('warns on stderr when no callback is given', () => {
    plant(0o644);
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(readToken(home)).toBe(TOKEN);
    expect(write).toHaveBeenCalledTimes(1);
    expect(String(write.mock.calls[0]?.[0])).toMatch(
      /^x-ipe-uiux: warning: the bridge token file .* was set to 0600/,
    );
  });

  it('refuses a file owned by another uid, with the fix, and leaves it as it was', () => {
    plant(0o644);
    const onRepaired = vi.fn();
    for (const read of [
      () => readToken(home, { uid: me + 1, onRepaired }),
      () => ensureToken(home, { uid: me + 1 }),
    ]) {
      const error = refusal(read);
      expect(error.code).toBe('UNAUTHORIZED');
      expect(error.message).toContain(`${file} is owned by uid ${me}, not by you (uid ${me + 1})`);
      expect(error.message).toContain('x-ipe-uiux install');
      expect(error.message).not.toContain(TOKEN);
    }
    expect(onRepaired).not.toHaveBeenCalled();
    expect(mode(file)).toBe(0o644);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${TOKEN}\n`);
  });

  it.runIf(me === 0)('refuses a file really chowned to another user (running as root)', () => {
    plant(0o600);
    fs.chownSync(file, 4321, 4321);
    expect(refusal(() => readToken(home)).message).toMatch(/owned by uid 4321, not by you \(uid 0\)/);
    expect(fs.statSync(file).uid).toBe(4321);
  });

  it('refuses something that is not a regular file (a FIFO must not hang the reader)', () => {
    execFileSync('mkfifo', ['-m', '600', file]);
    expect(refusal(() => readToken(home)).message).toMatch(/not a regular file/);
    fs.rmSync(file);
    fs.mkdirSync(file, { mode: 0o700 });
    expect(refusal(() => ensureToken(home)).message).toMatch(/not a regular file/);
  });

  it('skips the POSIX checks on Windows', () => {
    plant(0o644);
    const onRepaired = vi.fn();
    expect(readToken(home, { platform: 'win32', uid: me + 1, onRepaired })).toBe(TOKEN);
    expect(onRepaired).not.toHaveBeenCalled();
    expect(mode(file)).toBe(0o644);
  });

  it('treats a missing or empty file as no token', () => {
    expect(readToken(home)).toBeNull();
    plant(0o600, '\n');
    expect(readToken(home)).toBeNull();
  });
});
