import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MCP_SERVER_NAME } from '#shared/constants.js';
import { writeFileAtomicSync } from '#shared/node/atomic-write.js';
import { INIT_COMMAND } from '#shared/node/cli-commands.js';
import { argsOrExit, UsageError } from '#shared/node/command-line.js';
import { xipeHome } from '#shared/node/paths.js';
import { withGuide } from './agent-guide.js';
import { checkIdeaName, setUpProject } from './first-idea.js';
import { JsoncError, parseJsonc, setJsoncProperty } from './jsonc.js';
import { acceptedNodeFlags, MCP_NODE_FLAGS } from './node-flags.js';
import { cliEntry } from './package-root.js';

export const CLIENTS = ['claude', 'copilot', 'opencode'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface InitContext {
  /** Project root: where project-level configs and instruction files go. */
  workspace: string;
  nodePath: string;
  /** Node flags for the server (see node-flags.ts); none when absent. */
  nodeFlags?: readonly string[];
  entry: string;
  /** The user's home directory (Copilot's config lives under it). */
  userHome: string;
  env: NodeJS.ProcessEnv;
}

export interface ClientTarget {
  client: ClientName;
  configFile: string;
  /** Key path of the server entry inside the config. */
  keyPath: string[];
  entry: Record<string, unknown>;
  /** Written only when the config file does not exist yet. */
  newFileHeader: Record<string, unknown>;
  guideFile: string;
}

/** What `x-ipe-uiux init` registers: this node (with the flags it accepts) and this package's entry. */
export function currentInitContext(workspace: string): InitContext {
  return {
    workspace,
    nodePath: process.execPath,
    nodeFlags: acceptedNodeFlags(process.execPath, MCP_NODE_FLAGS),
    entry: cliEntry(),
    userHome: os.homedir(),
    env: process.env,
  };
}

/** XIPE_UIUX_HOME set at init time is passed on, so the server finds the same token and hosts. */
function homeEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const home = env.XIPE_UIUX_HOME;
  return home !== undefined && home !== '' ? { XIPE_UIUX_HOME: path.resolve(home) } : undefined;
}

/** Copilot CLI keeps user-level MCP servers in `$COPILOT_HOME/mcp-config.json` (default ~/.copilot). */
export function copilotConfigFile(userHome: string, env: NodeJS.ProcessEnv): string {
  const dir =
    env.COPILOT_HOME !== undefined && env.COPILOT_HOME !== ''
      ? env.COPILOT_HOME
      : path.join(userHome, '.copilot');
  return path.join(dir, 'mcp-config.json');
}

/** Where each client reads its MCP servers and its instructions, and the entry in its format. */
export function clientTarget(client: ClientName, ctx: InitContext): ClientTarget {
  const root = path.resolve(ctx.workspace);
  const nodeArgs = [...(ctx.nodeFlags ?? []), ctx.entry, 'mcp'];
  const serverArgs = [...nodeArgs, '--workspace', root];
  const env = homeEnv(ctx.env);
  switch (client) {
    case 'claude':
      return {
        client,
        configFile: path.join(root, '.mcp.json'),
        keyPath: ['mcpServers', MCP_SERVER_NAME],
        entry: { command: ctx.nodePath, args: serverArgs, ...(env ? { env } : {}) },
        newFileHeader: {},
        guideFile: path.join(root, 'CLAUDE.md'),
      };
    case 'copilot':
      // A user-level file: no --workspace, so the server uses the directory Copilot runs in.
      return {
        client,
        configFile: copilotConfigFile(ctx.userHome, ctx.env),
        keyPath: ['mcpServers', MCP_SERVER_NAME],
        entry: {
          type: 'local',
          command: ctx.nodePath,
          args: nodeArgs,
          tools: ['*'],
          ...(env ? { env } : {}),
        },
        newFileHeader: {},
        guideFile: path.join(root, '.github', 'copilot-instructions.md'),
      };
    case 'opencode': {
      const jsonc = path.join(root, 'opencode.jsonc');
      return {
        client,
        configFile: fs.existsSync(jsonc) ? jsonc : path.join(root, 'opencode.json'),
        keyPath: ['mcp', MCP_SERVER_NAME],
        entry: {
          type: 'local',
          command: [ctx.nodePath, ...serverArgs],
          enabled: true,
          ...(env ? { environment: env } : {}),
        },
        newFileHeader: { $schema: 'https://opencode.ai/config.json' },
        guideFile: path.join(root, 'AGENTS.md'),
      };
    }
  }
}

export type FileAction = 'created' | 'updated' | 'unchanged';

export interface ClientResult {
  client: ClientName;
  configFile: string;
  config: FileAction | 'refused';
  guideFile: string;
  guide: FileAction | 'skipped';
  /** Why the config was refused (the file was left untouched). */
  error?: string;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function writeIfChanged(file: string, before: string | null, after: string): FileAction {
  if (before === after) return 'unchanged';
  // Atomic, keeping the original file's mode.
  writeFileAtomicSync(file, after, { dirMode: 0o755 });
  return before === null ? 'created' : 'updated';
}

/** Merges the server entry into one client's config and installs the guide. Never clobbers. */
export function initClient(target: ClientTarget): ClientResult {
  const base = { client: target.client, configFile: target.configFile, guideFile: target.guideFile };
  const before = readIfExists(target.configFile);
  let after: string;
  try {
    if (before === null || before.trim() === '') {
      const doc = { ...target.newFileHeader };
      let cursor: Record<string, unknown> = doc;
      for (const key of target.keyPath.slice(0, -1)) {
        const next: Record<string, unknown> = {};
        cursor[key] = next;
        cursor = next;
      }
      cursor[target.keyPath.at(-1) ?? MCP_SERVER_NAME] = target.entry;
      after = `${JSON.stringify(doc, null, 2)}\n`;
    } else {
      const parsed = parseJsonc(before);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('the top level is not a JSON object');
      }
      after = setJsoncProperty(before, target.keyPath, target.entry);
    }
  } catch (err) {
    const why = err instanceof JsoncError || err instanceof Error ? err.message : String(err);
    return {
      ...base,
      config: 'refused',
      guide: 'skipped',
      error: `cannot parse ${target.configFile} (${why}); left it untouched. Fix the file, then run init again.`,
    };
  }
  const config = writeIfChanged(target.configFile, before, after);
  const guideBefore = readIfExists(target.guideFile);
  const guide = writeIfChanged(target.guideFile, guideBefore, withGuide(guideBefore));
  return { ...base, config, guide };
}

export function initClients(clients: readonly ClientName[], ctx: InitContext): ClientResult[] {
  return clients.map((client) => initClient(clientTarget(client, ctx)));
}

/** Clients whose config lives in the project; the others' config is the user's, for every project. */
export const PROJECT_CLIENTS: readonly ClientName[] = ['claude', 'opencode'];

export function parseClientFlag(value: string): ClientName[] {
  if (value === 'all') return [...CLIENTS];
  return value.split(',').map((c) => {
    if (!(CLIENTS as readonly string[]).includes(c)) {
      throw new UsageError(`--client must be one of ${CLIENTS.join(', ')} or all (got '${c}')`);
    }
    return c as ClientName;
  });
}

export interface ClientChoice {
  clients: ClientName[];
  /** Lines saying what was left out and how to add it. */
  skipped: string[];
}

/**
 * Without --client, init must not write a user-level config (Copilot's, shared by every project)
 * behind the user's back: on a terminal it asks, default no; otherwise it writes the project-level
 * clients only and says what it skipped.
 */
export async function chooseClients(
  ctx: InitContext,
  ask: ((question: string) => Promise<string>) | null,
): Promise<ClientChoice> {
  const copilotFile = copilotConfigFile(ctx.userHome, ctx.env);
  if (ask !== null) {
    const answer = await ask(
      `Also register with Copilot CLI? That writes ${copilotFile}, a user-level file read in every project. [y/N] `,
    );
    if (/^y(es)?$/i.test(answer.trim())) return { clients: [...CLIENTS], skipped: [] };
  }
  return {
    clients: [...PROJECT_CLIENTS],
    skipped: [
      `copilot: skipped (its config ${copilotFile} is user-level); run \`x-ipe-uiux init --client copilot\` to add it`,
    ],
  };
}

/** A one-line question on the terminal, or null when stdin or stdout is not one. */
function terminalQuestion(): ((question: string) => Promise<string>) | null {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return null;
  return async (question) => {
    const readline = await import('node:readline/promises');
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

export async function runInit(argv: string[]): Promise<number> {
  const args = argsOrExit(INIT_COMMAND, argv);
  if (typeof args === 'number') return args;
  try {
    const workspace = path.resolve(args.values.workspace ?? process.cwd());
    const ctx = currentInitContext(workspace);
    const choice =
      args.values.client !== undefined
        ? { clients: parseClientFlag(args.values.client), skipped: [] }
        : await chooseClients(ctx, terminalQuestion());
    const idea = args.values.idea !== undefined ? checkIdeaName(args.values.idea) : undefined;
    const results = initClients(choice.clients, ctx);
    let refused = 0;
    for (const r of results) {
      if (r.config === 'refused') {
        refused += 1;
        process.stderr.write(`${r.client}: refused: ${r.error ?? ''}\n`);
        continue;
      }
      process.stdout.write(`${r.client}: ${r.config} ${r.configFile} (server "${MCP_SERVER_NAME}")\n`);
      process.stdout.write(`${r.client}: ${r.guide} agent guide in ${r.guideFile}\n`);
    }
    for (const line of choice.skipped) process.stdout.write(`${line}\n`);
    const project = await setUpProject({ workspace, home: xipeHome(), idea, ask: terminalQuestion() });
    for (const line of project.lines) process.stdout.write(`${line}\n`);
    if (refused === 0) {
      process.stdout.write(
        'Next: `x-ipe-uiux start --workspace .` opens the browser; `x-ipe-uiux doctor` checks every link; restart the agent so it picks up the server.\n',
      );
    }
    return refused === 0 ? 0 : 1;
  } catch (err) {
    process.stderr.write(`x-ipe-uiux init: ${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
