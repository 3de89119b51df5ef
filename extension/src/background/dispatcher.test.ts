import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, XipeError } from '../../../shared/src/index.js';

vi.mock('../platform/browser.js', () => ({ browser: {}, userScriptsApi: () => null }));
// The toolbar bundle (an IIFE file import) needs a DOM; the opener is not exercised here.
vi.mock('./collection/open.js', () => ({ openToolbar: async () => 'open' }));

const { dispatch } = await import('./dispatcher.js');
const { HANDLERS } = await import('./handlers/index.js');

const ctx = {
  browserInfo: async () => ({
    browser_id: 'chromium-abc',
    name: 'chromium',
    version: '156',
    user_agent: 'ua',
  }),
};
const request = (command: string, params: unknown) => ({ type: 'request' as const, id: 1, command, params });

describe('handler registry', () => {
  it('has exactly one handler per extension command, and none for other commands', () => {
    const extensionCommands = Object.entries(COMMANDS)
      .filter(([, spec]) => spec.handledBy === 'extension')
      .map(([name]) => name)
      .sort();
    expect(Object.keys(HANDLERS).sort()).toEqual(extensionCommands);
  });
});

describe('dispatch', () => {
  const handlers = {
    ...HANDLERS,
    list_tabs: vi.fn(async () => ({ browser: await ctx.browserInfo(), tabs: [] })),
    inject_script: vi.fn(async () => {
      throw new XipeError('TAB_NOT_FOUND', 'gone');
    }),
  };

  it('answers a known command with its result', async () => {
    await expect(dispatch(request('list_tabs', {}), handlers, ctx)).resolves.toMatchObject({
      type: 'response',
      id: 1,
      ok: true,
      result: { tabs: [] },
    });
  });

  it('fails unknown and host-side commands', async () => {
    for (const command of ['nope', 'host_status']) {
      await expect(dispatch(request(command, {}), handlers, ctx)).resolves.toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(command) },
      });
    }
  });

  it('rejects invalid params with the field name', async () => {
    const response = await dispatch(request('inject_script', { code: 5 }), handlers, ctx);
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('code') },
    });
  });

  it('maps handler exceptions to error payloads', async () => {
    await expect(dispatch(request('inject_script', { code: '1' }), handlers, ctx)).resolves.toMatchObject({
      ok: false,
      error: { code: 'TAB_NOT_FOUND', message: 'gone' },
    });
  });
});
