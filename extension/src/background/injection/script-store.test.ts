import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScriptStore, sha256Hex } from './script-store.js';

const hashOf = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('ScriptStore', () => {
  it('hashes like node:crypto (UTF-8 bytes, lower-case hex)', async () => {
    expect(await sha256Hex('1 + 1; // é ✓')).toBe(hashOf('1 + 1; // é ✓'));
  });

  it('keeps code sent with its hash and finds it by the hash alone', async () => {
    const store = new ScriptStore();
    const code = 'document.title;';
    expect(await store.resolve({ code, code_sha256: hashOf(code) })).toBe(code);
    expect(await store.resolve({ code_sha256: hashOf(code) })).toBe(code);
  });

  it('answers SCRIPT_NOT_CACHED for a hash it does not hold', async () => {
    const store = new ScriptStore();
    await expect(store.resolve({ code_sha256: hashOf('x') })).rejects.toMatchObject({
      code: 'SCRIPT_NOT_CACHED',
    });
    await store.resolve({ code: 'x' }); // without a hash nothing is kept
    await expect(store.resolve({ code_sha256: hashOf('x') })).rejects.toMatchObject({
      code: 'SCRIPT_NOT_CACHED',
    });
  });

  it('refuses a hash that does not match the code, and keeps nothing', async () => {
    const store = new ScriptStore();
    await expect(store.resolve({ code: 'a', code_sha256: hashOf('b') })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(store.resolve({ code_sha256: hashOf('b') })).rejects.toMatchObject({
      code: 'SCRIPT_NOT_CACHED',
    });
  });
});
