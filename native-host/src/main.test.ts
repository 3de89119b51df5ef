import { describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '#shared/constants.js';
import { parseHostArgs } from './main.js';

describe('parseHostArgs', () => {
  it('takes the caller origin Chrome passes first', () => {
    expect(parseHostArgs([EXTENSION_ORIGIN])).toEqual({
      origin: EXTENSION_ORIGIN,
      parentWindow: null,
      extra: [],
    });
  });

  it('accepts the Windows --parent-window flag', () => {
    expect(parseHostArgs([EXTENSION_ORIGIN, '--parent-window=0'])).toEqual({
      origin: EXTENSION_ORIGIN,
      parentWindow: '0',
      extra: [],
    });
  });

  it('normalises a missing trailing slash and keeps other arguments aside', () => {
    const bare = EXTENSION_ORIGIN.slice(0, -1);
    expect(parseHostArgs(['/path/to/manifest.json', bare])).toEqual({
      origin: EXTENSION_ORIGIN,
      parentWindow: null,
      extra: ['/path/to/manifest.json'],
    });
  });

  it('does not take a malformed origin', () => {
    expect(parseHostArgs(['chrome-extension://../../etc/']).origin).toBeNull();
    expect(parseHostArgs([]).origin).toBeNull();
  });
});
