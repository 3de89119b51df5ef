/**
 * `x-ipe-uiux <command>`: the composition root. Each process entry is loaded lazily so the native
 * host never pays for loading the MCP SDK and vice versa.
 */
const USAGE = `Usage: x-ipe-uiux <command> [options]

Commands:
  start [--workspace DIR] [--headless] [--user-data-dir DIR] [--timeout SECONDS] [URL]
                                               Launch Chromium with the extension, host and toolbar ready
  install [--browser B] [--user-data-dir DIR] [--workspace DIR]
                                               Register the native host with a browser
  uninstall [--browser B] [--user-data-dir DIR]
                                               Remove what install wrote
  init [--client claude|copilot|opencode|all] [--workspace DIR]
                                               Register the MCP server with coding agents
  doctor [--json] [--workspace DIR]            Check every link and say how to fix what is broken
  save [--data-file F | --data JSON] [--workspace DIR] [--format json|text]
                                               Save reference data into an idea (stdin by default; no browser needed)
  mcp [--workspace DIR] [--http PORT]          The MCP server: stdio (started by agents), or
                                               Streamable HTTP on 127.0.0.1:PORT with the bearer token
  host                                         The native-messaging host (started by the browser)

Environment: XIPE_UIUX_HOME (per-user state), CHROME_PATH (browser), XIPE_UIUX_LOG_LEVEL,
  XIPE_UIUX_TOOL_TIMEOUT_MS (MCP tool time limit, default 30000).
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'host': {
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
    case 'start': {
      const { runStart } = await import('./start.js');
      return runStart(rest);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(`x-ipe-uiux: unknown command '${command}'\n\n${USAGE}`);
      return 2;
  }
}

/** Exits once everything already written to stdout has been flushed (bounded by a short grace). */
function exitAfterFlush(code: number): void {
  const exit = (): never => process.exit(code);
  setTimeout(exit, 2_000).unref();
  process.stdout.write('', () => setTimeout(exit, 50).unref());
}
