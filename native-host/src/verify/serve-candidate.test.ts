import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { candidateFile, serveCandidate } from './serve-candidate.js';

let root: string;
let ws: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-'));
  ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'mock', 'css'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.git'));
  fs.writeFileSync(path.join(ws, 'mock', 'page.html'), '<link rel="stylesheet" href="css/a.css">hi');
  fs.writeFileSync(path.join(ws, 'mock', 'css', 'a.css'), 'body{color:red}');
  fs.writeFileSync(path.join(ws, '.git', 'config'), 'secret');
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'not a page resource');
  fs.writeFileSync(path.join(root, 'outside.html'), 'outside');
  fs.symlinkSync(path.join(root, 'outside.html'), path.join(ws, 'mock', 'link.html'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('candidateFile', () => {
  it('accepts an HTML file inside the workspace, relative or absolute', async () => {
    const real = fs.realpathSync(path.join(ws, 'mock', 'page.html'));
    expect(await candidateFile(ws, 'mock/page.html')).toBe(real);
    expect(await candidateFile(ws, path.join(ws, 'mock', 'page.html'))).toBe(real);
  });

  it('refuses files outside the workspace, through links too, and non-HTML files', async () => {
    await expect(candidateFile(ws, path.join(root, 'outside.html'))).rejects.toThrow(
      /file_path.*inside the workspace/,
    );
    await expect(candidateFile(ws, '../outside.html')).rejects.toThrow(/inside the workspace/);
    await expect(candidateFile(ws, 'mock/link.html')).rejects.toThrow(/links resolved/);
    await expect(candidateFile(ws, 'notes.txt')).rejects.toThrow(/\.html file/);
    await expect(candidateFile(ws, 'mock/none.html')).rejects.toThrow(/existing HTML file/);
  });
});

describe('serveCandidate', () => {
  it('serves the page and what it loads under a random prefix on 127.0.0.1, nothing else, and nothing once closed', async () => {
    const served = await serveCandidate(ws, await candidateFile(ws, 'mock/page.html'));
    const url = new URL(served.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toMatch(/^\/[0-9a-f]{32}\/mock\/page\.html$/);
    const prefix = url.pathname.split('/')[1];
    const at = (p: string) => fetch(`${url.origin}${p}`);
    expect(await (await at(url.pathname)).text()).toContain('hi');
    expect((await at(`/${prefix}/mock/css/a.css`)).headers.get('content-type')).toMatch(/text\/css/);
    expect((await at('/mock/page.html')).status).toBe(404);
    expect((await at(`/${'0'.repeat(32)}/mock/page.html`)).status).toBe(404);
    expect((await at(`/${prefix}/.git/config`)).status).toBe(404);
    expect((await at(`/${prefix}/notes.txt`)).status).toBe(404);
    expect((await at(`/${prefix}/mock/link.html`)).status).toBe(404);
    expect((await at(`/${prefix}/..%2Foutside.html`)).status).toBe(404);
    expect((await at(`/${prefix}/mock/`)).status).toBe(404);
    expect((await fetch(served.url, { method: 'POST' })).status).toBe(405);
    await served.close();
    await expect(fetch(served.url)).rejects.toThrow();
  });
});
