import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUIDE_BEGIN, GUIDE_END } from './agent-guide.js';
import { CLIENTS, chooseClients, type InitContext, initClients } from './init.js';
import { parseJsonc } from './jsonc.js';

const NAME = 'x-ipe-app-and-agent-interaction';
let tmp: string;
let ctx: InitContext;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-init-'));
  ctx = {
    workspace: path.join(tmp, 'my project'),
    nodePath: '/usr/local/bin/node',
    nodeFlags: ['--max-semi-space-size=1'],
    entry: '/opt/x/bin/x-ipe-uiux.js',
    userHome: path.join(tmp, 'home'),
    env: {},
  };
  fs.mkdirSync(ctx.workspace, { recursive: true });
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const read = (file: string): unknown => parseJsonc(fs.readFileSync(file, 'utf8'));
const ws = (...p: string[]): string => path.join(ctx.workspace, ...p);

describe('init writes each client in its own format', () => {
  it('creates all three configs and guides in a fresh project', () => {
    const results = initClients(CLIENTS, ctx);
    expect(results.map((r) => [r.client, r.config, r.guide])).toEqual([
      ['claude', 'created', 'created'],
      ['copilot', 'created', 'created'],
      ['opencode', 'created', 'created'],
    ]);
    expect(read(ws('.mcp.json'))).toEqual({
      mcpServers: {
        [NAME]: {
          command: ctx.nodePath,
          args: ['--max-semi-space-size=1', ctx.entry, 'mcp', '--workspace', ctx.workspace],
        },
      },
    });
    expect(read(path.join(ctx.userHome, '.copilot', 'mcp-config.json'))).toEqual({
      mcpServers: {
        [NAME]: {
          type: 'local',
          command: ctx.nodePath,
          args: ['--max-semi-space-size=1', ctx.entry, 'mcp'],
          tools: ['*'],
        },
      },
    });
    expect(read(ws('opencode.json'))).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: {
        [NAME]: {
          type: 'local',
          command: [ctx.nodePath, '--max-semi-space-size=1', ctx.entry, 'mcp', '--workspace', ctx.workspace],
          enabled: true,
        },
      },
    });
    for (const guide of ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md']) {
      const text = fs.readFileSync(ws(guide), 'utf8');
      expect(text).toContain(GUIDE_BEGIN);
      for (const tool of ['inject_toolbar', 'wait_for_captures', 'save_uiux_reference', 'inject_script']) {
        expect(text).toContain(tool);
      }
    }
  });

  it('is idempotent: a second run changes nothing', () => {
    initClients(CLIENTS, ctx);
    const snapshot = ['.mcp.json', 'opencode.json', 'CLAUDE.md', 'AGENTS.md'].map((f) =>
      fs.readFileSync(ws(f), 'utf8'),
    );
    const again = initClients(CLIENTS, ctx);
    expect(again.every((r) => r.config === 'unchanged' && r.guide === 'unchanged')).toBe(true);
    expect(
      ['.mcp.json', 'opencode.json', 'CLAUDE.md', 'AGENTS.md'].map((f) => fs.readFileSync(ws(f), 'utf8')),
    ).toEqual(snapshot);
  });

  it('honours COPILOT_HOME and passes XIPE_UIUX_HOME on to the server', () => {
    const copilotHome = path.join(tmp, 'copilot-home');
    const results = initClients(['copilot', 'claude', 'opencode'], {
      ...ctx,
      env: { COPILOT_HOME: copilotHome, XIPE_UIUX_HOME: path.join(tmp, 'xh') },
    });
    expect(results[0]?.configFile).toBe(path.join(copilotHome, 'mcp-config.json'));
    const copilot = read(path.join(copilotHome, 'mcp-config.json')) as {
      mcpServers: Record<string, { env: unknown }>;
    };
    expect(copilot.mcpServers[NAME]?.env).toEqual({ XIPE_UIUX_HOME: path.join(tmp, 'xh') });
    const opencode = read(ws('opencode.json')) as { mcp: Record<string, { environment: unknown }> };
    expect(opencode.mcp[NAME]?.environment).toEqual({ XIPE_UIUX_HOME: path.join(tmp, 'xh') });
  });
});

describe('init merges into existing configs', () => {
  it('claude: keeps other servers, unknown keys and comments', () => {
    const before = `{
  // team servers
  "mcpServers": {
    "github": { "command": "gh-mcp", "args": [] }
  },
  "x-unknown": { "keep": true }
}
`;
    fs.writeFileSync(ws('.mcp.json'), before);
    fs.writeFileSync(ws('CLAUDE.md'), '# Project rules\n\nBe nice.\n');
    const [r] = initClients(['claude'], ctx);
    expect(r?.config).toBe('updated');
    const after = fs.readFileSync(ws('.mcp.json'), 'utf8');
    expect(after).toContain('// team servers');
    expect(after.startsWith(before.slice(0, before.indexOf('}') + 1))).toBe(true);
    expect(read(ws('.mcp.json'))).toMatchObject({
      mcpServers: { github: { command: 'gh-mcp', args: [] }, [NAME]: { command: ctx.nodePath } },
      'x-unknown': { keep: true },
    });
    const guide = fs.readFileSync(ws('CLAUDE.md'), 'utf8');
    expect(guide.startsWith('# Project rules\n\nBe nice.\n\n<!-- x-ipe-uiux:begin')).toBe(true);
  });

  it('opencode: prefers opencode.jsonc and keeps its comments and trailing commas', () => {
    const before = `{
  "$schema": "https://opencode.ai/config.json",
  // models
  "model": "anthropic/claude",
  "mcp": {
    "everything": { "type": "local", "command": ["npx", "-y", "e"], }, // demo
  },
}
`;
    fs.writeFileSync(ws('opencode.jsonc'), before);
    const [r] = initClients(['opencode'], ctx);
    expect(r?.configFile).toBe(ws('opencode.jsonc'));
    expect(fs.existsSync(ws('opencode.json'))).toBe(false);
    const after = fs.readFileSync(ws('opencode.jsonc'), 'utf8');
    expect(after).toContain('// models');
    expect(after).toContain('// demo');
    expect(read(ws('opencode.jsonc'))).toMatchObject({
      model: 'anthropic/claude',
      mcp: { everything: { type: 'local' }, [NAME]: { type: 'local', enabled: true } },
    });
  });

  it('replaces an outdated entry of ours but nothing else', () => {
    fs.mkdirSync(path.join(ctx.userHome, '.copilot'), { recursive: true });
    const file = path.join(ctx.userHome, '.copilot', 'mcp-config.json');
    fs.writeFileSync(
      file,
      JSON.stringify(
        { mcpServers: { [NAME]: { command: 'old' }, other: { type: 'http', url: 'u' } } },
        null,
        2,
      ),
    );
    initClients(['copilot'], ctx);
    expect(read(file)).toEqual({
      mcpServers: {
        [NAME]: {
          type: 'local',
          command: ctx.nodePath,
          args: ['--max-semi-space-size=1', ctx.entry, 'mcp'],
          tools: ['*'],
        },
        other: { type: 'http', url: 'u' },
      },
    });
  });

  it('replaces the guide section in place when run again after it changed', () => {
    fs.writeFileSync(ws('AGENTS.md'), `intro\n\n${GUIDE_BEGIN}\nold text\n${GUIDE_END}\n\noutro\n`);
    initClients(['opencode'], ctx);
    const text = fs.readFileSync(ws('AGENTS.md'), 'utf8');
    expect(text.startsWith('intro\n\n<!-- x-ipe-uiux:begin')).toBe(true);
    expect(text).not.toContain('old text');
    expect(text.endsWith(`${GUIDE_END}\n\noutro\n`)).toBe(true);
    expect(text.split(GUIDE_BEGIN)).toHaveLength(2);
  });
});

describe('init refuses to clobber what it cannot parse', () => {
  it.each([
    ['claude', '.mcp.json', '{ "mcpServers": { "a": 1 '],
    ['opencode', 'opencode.json', 'model = "x"'],
    ['claude', '.mcp.json', '["not", "an", "object"]'],
    ['claude', '.mcp.json', '{"mcpServers": "a string"}'],
  ] as const)('%s with %s = %j', (client, file, content) => {
    fs.writeFileSync(ws(file), content);
    const [r] = initClients([client], ctx);
    expect(r?.config).toBe('refused');
    expect(r?.error).toContain(ws(file));
    expect(r?.error).toContain('untouched');
    expect(fs.readFileSync(ws(file), 'utf8')).toBe(content);
    expect(fs.existsSync(ws(client === 'claude' ? 'CLAUDE.md' : 'AGENTS.md'))).toBe(false);
  });
});

describe('init without --client', () => {
  it('asks on a terminal before writing the user-level Copilot config; anything but yes skips it', async () => {
    const questions: string[] = [];
    const ask = (answer: string) => async (question: string) => {
      questions.push(question);
      return answer;
    };
    expect((await chooseClients(ctx, ask('y'))).clients).toEqual(['claude', 'copilot', 'opencode']);
    expect(questions[0]).toContain(path.join(ctx.userHome, '.copilot', 'mcp-config.json'));
    expect(questions[0]).toMatch(/\[y\/N\] $/);
    for (const answer of ['', 'n', 'no thanks']) {
      const choice = await chooseClients(ctx, ask(answer));
      expect(choice.clients).toEqual(['claude', 'opencode']);
      expect(choice.skipped).toEqual([expect.stringContaining('copilot: skipped')]);
    }
  });

  it('without a terminal takes the project-level clients and names the skipped one', async () => {
    const choice = await chooseClients({ ...ctx, env: { COPILOT_HOME: '/c' } }, null);
    expect(choice).toEqual({
      clients: ['claude', 'opencode'],
      skipped: [
        'copilot: skipped (its config /c/mcp-config.json is user-level); run `x-ipe-uiux init --client copilot` to add it',
      ],
    });
  });
});
