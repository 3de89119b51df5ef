import type { Progress } from '#shared/envelopes.js';
import type { ServerNotification } from './sdk.js';

/**
 * MCP progress for a tool call whose client asked for it (`_meta.progressToken`): the browser's
 * word that the call waits its turn ("queued behind 2 captures: …") or has started. Notifications
 * count up, as MCP requires, one per message; a client that asked for none hears nothing.
 */
export function progressNotifier(
  token: unknown,
  extra: { sendNotification(notification: ServerNotification): Promise<void> },
): ((progress: Progress) => void) | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let count = 0;
  return (progress) => {
    count += 1;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: count, message: progress.message },
      })
      .catch(() => undefined); // the client went away: its call ends with it
  };
}
