import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { McpSession, writeScript } from '../helpers/browser-mcp.js';

/**
 * inject_script when the user has NOT allowed user scripts: chrome.scripting with indirect eval in
 * the MAIN world works on normal pages; where the page CSP forbids eval (and in the isolated world,
 * where extensions may never eval) the error says exactly how to allow user scripts.
 */
describe('inject_script without user scripts (scripting fallback)', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let n = 0;
  const inject = (code: string, args: Record<string, unknown> = {}) =>
    mcp.call('inject_script', {
      file_path: writeScript(path.join(env.root, 'scripts'), `f${++n}.js`, code),
      ...args,
    });

  beforeAll(async () => {
    env = await BrowserEnv.start({ userScripts: false });
    await env.openPage('/plain');
    await env.openPage('/csp');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  it('says hello with user_scripts_allowed false', async () => {
    const { info } = await env.waitForHost();
    expect(info.extension?.user_scripts_allowed).toBe(false);
  });

  it('runs on a plain page via scripting, with the completion value and awaited promises', async () => {
    const { isError, body } = await inject('var a = 2;\nPromise.resolve(a * 21)', { url_contains: '/plain' });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ success: true, returnValue: 42, method: 'scripting' });
    const { body: element } = await inject('document.querySelector("p")', { url_contains: '/plain' });
    expect(element.returnValue).toBe('[Element p.lead]');
  });

  it('still reports throw, rejection and syntax error as SCRIPT_ERROR', async () => {
    const thrown = await inject('null;\nthrow new Error("fallback boom")', { url_contains: '/plain' });
    expect(thrown.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'throw', line: 2 } });
    expect(thrown.body.message).toContain('fallback boom');
    const rejected = await inject('Promise.reject(new Error("fallback reject"))', { url_contains: '/plain' });
    expect(rejected.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'rejection' } });
    expect(rejected.body.message).toContain('fallback reject');
    const syntax = await inject('1;\n2;\nfunction (', { url_contains: '/plain' });
    expect(syntax.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'syntax', line: 3 } });
  });

  it('accepts top-level await through the fallback too, throws and rejections included', async () => {
    const { isError, body } = await inject('const v = await Promise.resolve(20);\nv + 1', {
      url_contains: '/plain',
    });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ returnValue: 21, method: 'scripting' });
    const thrown = await inject('await null;\nthrow new Error("late boom")', { url_contains: '/plain' });
    expect(thrown.body).toMatchObject({ error: 'SCRIPT_ERROR', details: { kind: 'throw', line: 2 } });
    const rejected = await inject('await Promise.reject(new Error("late reject"))', {
      url_contains: '/plain',
    });
    expect(rejected.body).toMatchObject({ error: 'SCRIPT_ERROR' });
    expect(rejected.body.message).toContain('late reject');
  });

  it('gives INJECTION_BLOCKED with the how-to on a strict-CSP page', async () => {
    const { isError, body } = await inject('1 + 1', { url_contains: '/csp' });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'INJECTION_BLOCKED', details: { user_scripts_allowed: false } });
    expect(body.message).toContain('chrome://extensions');
    expect(body.message).toContain('Allow User Scripts');
    expect(body.message).toContain('x-ipe-uiux start');
  });

  it('gives INJECTION_BLOCKED with the how-to for the isolated world', async () => {
    const { body } = await inject('1', { url_contains: '/plain', world: 'isolated' });
    expect(body).toMatchObject({
      error: 'INJECTION_BLOCKED',
      message: expect.stringContaining('Allow User Scripts'),
    });
  });
});
