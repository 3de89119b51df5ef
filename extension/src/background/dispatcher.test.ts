import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, XipeError } from '#shared/index.js';

vi.mock('../platform/browser.js', () => ({ browser: {}, userScriptsApi: () => null }));
// The toolbar bundle (an IIFE file import) needs a DOM; the opener is not exercised here.
vi.mock('./toolbar/open.js', () => ({ openToolbar: async () => 'open' }));

const { dispatch } = await import('./dispatcher.js');
const { HANDLERS } = await import('./handlers/index.js');

const stagedFont = { ok: true as const, base64: 'AAEC', bytes: 3, content_type: 'font/woff2' };
const ctx = {
  browserInfo: async () => ({
    browser_id: 'chromium-abc',
    name: 'chromium',
    version: '156',
    user_agent: 'ua',
  }),
  // The toolbar's staged deep captures: one file of item k1, nothing else.
  staged: {
    area: vi.fn(async () => null),
    resource: vi.fn(async (key: string, url: string) =>
      key === 'k1' && url === 'https://cdn.example/a.woff2' ? stagedFont : null,
    ),
  },
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

  it('answers capture_area and fetch_resource for a staged capture from what the toolbar staged', async () => {
    const missing = await dispatch(request('capture_area', { staged: 'k1' }), HANDLERS, ctx);
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('No deep capture is staged') },
    });
    const font = await dispatch(
      request('fetch_resource', { url: 'https://cdn.example/a.woff2', tab_id: 1, staged: 'k1' }),
      HANDLERS,
      ctx,
    );
    expect(font).toMatchObject({ ok: true, result: stagedFont });
    // A staged capture names no selector or rect.
    const both = await dispatch(request('capture_area', { staged: 'k1', selector: 'main' }), HANDLERS, ctx);
    expect(both).toMatchObject({ ok: false, error: { message: expect.stringContaining('staged') } });
  });
});
