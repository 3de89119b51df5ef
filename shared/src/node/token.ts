import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tokenPath } from './paths.js';

/** Creates the shared secret (mode 0600) if missing and returns it. */
export function ensureToken(home: string): string {
  const file = tokenPath(home);
  const existing = readToken(home);
  if (existing !== null) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  try {
    // wx: never clobber a token another process created a moment ago.
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readToken(home);
      if (raced !== null) return raced;
    }
    throw err;
  }
}

export function readToken(home: string): string | null {
  try {
    const value = fs.readFileSync(tokenPath(home), 'utf8').trim();
    return value === '' ? null : value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Constant-time comparison so the token cannot be guessed byte by byte. */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
