import path from 'node:path';
import { EXTENSION_ORIGIN } from '#shared/constants.js';
import { createLogger, type Logger } from '#shared/node/logger.js';
import { logsDir, xipeHome } from '#shared/node/paths.js';
import { ensureToken } from '#shared/node/token.js';
import { startHost } from './host.js';

/**
 * `x-ipe-uiux host`: what the browser starts for `connectNative`. Wires the real process (stdin,
 * stdout, signals, home, token, log file) to the host and resolves with the exit code once it
 * has shut down. stdout carries native-messaging frames only.
 */

export interface HostArgs {
  /** chrome-extension://<id>/ as passed by Chrome (first argument), or null. */
  origin: string | null;
  /** Windows only: the caller's window handle (`--parent-window=N`); unused. */
  parentWindow: string | null;
  /** Anything else (other browsers pass a manifest path and an id); logged, ignored. */
  extra: string[];
}

export function parseHostArgs(argv: readonly string[]): HostArgs {
  const args: HostArgs = { origin: null, parentWindow: null, extra: [] };
  for (const arg of argv) {
    if (args.origin === null && /^chrome-extension:\/\/[a-p]{32}\/?$/.test(arg)) {
      args.origin = arg.endsWith('/') ? arg : `${arg}/`;
    } else if (arg.startsWith('--parent-window=')) {
      args.parentWindow = arg.slice('--parent-window='.length);
    } else {
      args.extra.push(arg);
    }
  }
  return args;
}

/** Test knob: a short hello timeout keeps the "silent client" integration test fast. */
function helloTimeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number.parseInt(env.XIPE_UIUX_HELLO_TIMEOUT_MS ?? '', 10);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Anything a dependency prints with console.log must not corrupt the frame stream. */
function keepStdoutForFrames(logger: Logger): void {
  const toLog = (...parts: unknown[]): void =>
    logger.info('console output', { text: parts.map(String).join(' ') });
  console.log = toLog;
  console.info = toLog;
  console.debug = toLog;
}

export async function runHost(argv: string[]): Promise<number> {
  const env = process.env;
  const args = parseHostArgs(argv);
  const home = xipeHome(env);
  const logger = createLogger({ component: 'host', file: path.join(logsDir(home), 'host.log') });
  keepStdoutForFrames(logger);
  if (args.origin !== null && args.origin !== EXTENSION_ORIGIN) {
    logger.warn('started by an unexpected extension origin', {
      origin: args.origin,
      expected: EXTENSION_ORIGIN,
    });
  }
  if (args.extra.length > 0) logger.debug('ignored host arguments', { args: args.extra });

  let token: string;
  try {
    token = ensureToken(home, {
      onRepaired: (message) => logger.warn('token file permissions repaired', { detail: message }),
    });
  } catch (err) {
    logger.error('cannot read or create the token file', { home, error: (err as Error).message });
    return 1;
  }

  const host = await startHost({
    home,
    token,
    env,
    logger,
    origin: args.origin,
    input: process.stdin,
    output: process.stdout,
    helloTimeoutMs: helloTimeoutFromEnv(env),
  });

  const onSignal = (signal: NodeJS.Signals): void => void host.shutdown(0, signal);
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  const onFatal = (err: unknown): void => {
    logger.error('host crashed', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    void host.shutdown(1, 'fatal error');
  };
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  process.on('exit', host.removeFilesSync);

  const code = await host.exited;
  for (const signal of signals) process.off(signal, onSignal);
  process.stdin.destroy();
  // Whatever handle a dependency may still hold, the host must not outlive its link.
  setTimeout(() => process.exit(code), 1_000).unref();
  logger.info('host exited', { code });
  return code;
}
