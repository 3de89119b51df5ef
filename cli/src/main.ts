/**
 * `x-ipe-uiux <command>`: the composition root. Each process entry is loaded lazily so the native
 * host never pays for loading the MCP SDK and vice versa.
 */
import { CLI_COMMANDS, HOST_COMMAND } from '#shared/node/cli-commands.js';
import { commandHelp } from '#shared/node/command-line.js';

function usage(): string {
  const width = Math.max(...CLI_COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'Usage: x-ipe-uiux <command> [options]   (x-ipe-uiux help <command> for its options)',
    '',
    'Commands:',
    ...CLI_COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'x-ipe-uiux --version prints the version.',
    '',
    'Environment: XIPE_UIUX_HOME (per-user state), CHROME_PATH (browser), XIPE_UIUX_LOG_LEVEL,',
    '  XIPE_UIUX_TOOL_TIMEOUT_MS (MCP tool time limit, default 30000).',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'host': {
      // The browser passes its own arguments (origin, --parent-window=N): only an explicit help is ours.
      if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
        process.stdout.write(commandHelp(HOST_COMMAND));
        return 0;
      }
      const { runHost } = await import('../../native-host/src/main.js');
      return runHost(rest);
    }
    case 'mcp': {
      const { runMcp } = await import('../../mcp/src/main.js');
      const code = await runMcp(rest);
      // The server has answered and closed what it owns; a stray handle (a socket a late call
      // opened, a watcher) must not keep an agent's MCP process alive after stdin closed.
      exitAfterFlush(code);
      return code;
    }
    case 'install':
    case 'uninstall': {
      const { runInstall, runUninstall } = await import('./install.js');
      return command === 'install' ? runInstall(rest) : runUninstall(rest);
    }
    case 'init': {
      const { runInit } = await import('./init.js');
      return runInit(rest);
    }
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(rest);
    }
    case 'save': {
      const { runSave } = await import('./save.js');
      return runSave(rest);
    }
    case 'compare': {
      const { runCompare } = await import('./compare.js');
      return runCompare(rest);
    }
    case 'start': {
      const { runStart } = await import('./start.js');
      return runStart(rest);
    }
    case '--version':
    case '-v':
    case 'version': {
      const { PACKAGE_VERSION } = await import('#shared/node/version.js');
      process.stdout.write(`${PACKAGE_VERSION}\n`);
      return 0;
    }
    case 'help': {
      // `help <command>` is that command's --help.
      const [topic] = rest;
      const spec = CLI_COMMANDS.find((c) => c.name === topic);
      if (topic !== undefined && spec === undefined) {
        process.stderr.write(`x-ipe-uiux help: unknown command '${topic}'\n\n${usage()}`);
        return 2;
      }
      process.stdout.write(spec !== undefined ? commandHelp(spec) : usage());
      return 0;
    }
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(usage());
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(`x-ipe-uiux: unknown command '${command}'\n\n${usage()}`);
      return 2;
  }
}

/** Exits once everything already written to stdout has been flushed (bounded by a short grace). */
function exitAfterFlush(code: number): void {
  const exit = (): never => process.exit(code);
  setTimeout(exit, 2_000).unref();
  process.stdout.write('', () => setTimeout(exit, 50).unref());
}
