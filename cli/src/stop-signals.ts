/** Signals that stop `start` (and with it the browser and the host): SIGHUP is a closed terminal. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * The stop signals, listened to from before the browser starts until `start` returns: a signal
 * must never find a moment without our handler (its default ends the process and orphans the
 * browser), nor a second one interrupt the cleanup the first began.
 */
export function listenForStop(): {
  received: NodeJS.Signals | null;
  next: Promise<NodeJS.Signals>;
  dispose(): void;
} {
  let resolveNext: (signal: NodeJS.Signals) => void = () => {};
  const state = {
    received: null as NodeJS.Signals | null,
    next: new Promise<NodeJS.Signals>((resolve) => {
      resolveNext = resolve;
    }),
    dispose: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    state.received ??= signal;
    resolveNext(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return state;
}
