import { z } from 'zod';
import { connectedPages, executeFunction, type PagePort } from '../../platform/browser.js';

/**
 * A repeated call of a kept function without a script injection. `userScripts.execute` costs
 * ~0.55–0.9 ms a round trip even for a one-line script (argument checks, the browser's frame
 * lookup, a script compiled and run in the page); a message on a port that a content script of
 * the tab holds open costs 80–90 % of that (measured in the same loop, 2026-11-27). So once a
 * function is kept in a tab's MAIN world, the worker links that tab: the page runtime (MAIN world)
 * listens for a random event on `document`, and a content script (ISOLATED world, `linkPage`)
 * dispatches it with a detached node of its own as `relatedTarget`. The node is the link: the
 * content script tells the worker it got a call (`{n, started}`), then dispatches `c` on it
 * (`{n, id}`: call kept function `id`); the runtime answers with `r` (`{n, outcome}`, once a
 * returned promise settled), which the content script relays over its port. Nothing of this is on the page's `window`; the
 * events go to a node the page does not hold.
 *
 * A call the content script never got (the port closed first: the page navigated, was closed or
 * went into the back/forward cache) did not run; it goes as a script injection as before. One it
 * got gives no outcome when the port closes before the answer, like a script whose page went away.
 */

/** What `call` resolves to when the page never got the call: run it another way. */
export const NOT_SENT = Symbol('not sent');

/** One answer relayed by the content script: JSON text from the page. */
const ChannelAnswer = z.object({
  n: z.number().int(),
  started: z.literal(true).optional(),
  outcome: z.unknown().optional(),
});

interface Waiting {
  resolve(value: unknown): void;
  started: boolean;
}

export class PageChannel {
  private last = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly port: PagePort) {}

  /**
   * The kept function's outcome (or NOT_KEPT or NO_RUNTIME), null when the call arrived and no
   * outcome came, NOT_SENT when it never arrived.
   */
  call(id: string): Promise<unknown> {
    this.last += 1;
    const n = this.last;
    return new Promise((resolve) => {
      this.waiting.set(n, { resolve, started: false });
      try {
        this.port.postMessage(JSON.stringify({ n, id }));
      } catch {
        this.waiting.delete(n);
        resolve(NOT_SENT);
      }
    });
  }

  onMessage(message: unknown): void {
    if (typeof message !== 'string') return;
    let answer: z.infer<typeof ChannelAnswer>;
    try {
      answer = ChannelAnswer.parse(JSON.parse(message));
    } catch {
      return;
    }
    const waiting = this.waiting.get(answer.n);
    if (waiting === undefined) return;
    if (answer.started === true) {
      waiting.started = true;
      return;
    }
    this.waiting.delete(answer.n);
    waiting.resolve(answer.outcome ?? null);
  }

  onClose(): void {
    for (const waiting of this.waiting.values()) waiting.resolve(waiting.started ? null : NOT_SENT);
    this.waiting.clear();
  }

  close(): void {
    this.port.disconnect();
    this.onClose();
  }
}

/** How often a tab may fail to link before the worker stops trying (it costs two injections). */
const MAX_LINK_TRIES = 3;

/** The linked tabs of this worker (top frame, MAIN world), by tab id. */
export class PageChannels {
  private readonly byTab = new Map<number, PageChannel>();
  private readonly linking = new Set<number>();
  /** Tries since the tab last linked (closed tabs leave entries: bounded). */
  private readonly tries = new Map<number, number>();

  private listening = false;

  constructor(
    /** The event the page runtime listens for; random per worker lifetime, like the registry. */
    private readonly eventName: string,
    /** The port name of our content scripts' links, also per worker lifetime. */
    private readonly portName: string,
  ) {}

  /** Takes our content scripts' ports from the first link on (nothing can connect before). */
  private takePorts(): void {
    if (this.listening) return;
    this.listening = true;
    connectedPages(this.portName, (port, tabId) => {
      const channel = new PageChannel(port);
      this.tries.delete(tabId);
      this.byTab.get(tabId)?.close();
      this.byTab.set(tabId, channel);
      port.onMessage.addListener((message) => channel.onMessage(message));
      port.onDisconnect.addListener(() => {
        channel.onClose();
        if (this.byTab.get(tabId) === channel) this.byTab.delete(tabId);
      });
    });
  }

  get(tabId: number): PageChannel | undefined {
    return this.byTab.get(tabId);
  }

  /**
   * Links a tab whose page runtime keeps a function, in the background: `listen` makes the
   * runtime listen (a script injection), then the content script links and connects.
   */
  link(tabId: number, listen: (eventName: string) => Promise<unknown>): void {
    if (this.byTab.has(tabId) || this.linking.has(tabId)) return;
    this.takePorts();
    const tries = this.tries.get(tabId) ?? 0;
    if (tries >= MAX_LINK_TRIES) return;
    if (this.tries.size >= 256) this.tries.clear();
    this.tries.set(tabId, tries + 1);
    this.linking.add(tabId);
    void (async () => {
      try {
        if ((await listen(this.eventName)) !== true) return;
        await executeFunction({
          target: { tabId, frameIds: [0] },
          world: 'ISOLATED',
          injectImmediately: true,
          func: linkPage,
          args: [this.eventName, this.portName],
        });
      } catch {
        // The tab went away or cannot be scripted: calls keep going as script injections.
      } finally {
        this.linking.delete(tabId);
      }
    })();
  }
}

/**
 * Runs IN THE PAGE's isolated world (serialized with toString: nothing from outside its body).
 * Dispatches the link event with a detached node of its own; when the page runtime took it
 * (the event was cancelled), relays `c` and `r` events on that node over a port to the worker.
 */
export function linkPage(eventName: string, portName: string): boolean {
  const node = document.createElement('span');
  const taken = !document.dispatchEvent(new MouseEvent(eventName, { relatedTarget: node, cancelable: true }));
  if (!taken) return false;
  const port = chrome.runtime.connect({ name: portName });
  node.addEventListener('r', (event) => {
    const answer = (event as CustomEvent<string>).detail;
    try {
      port.postMessage(answer);
    } catch (err) {
      // Over Chrome's message size limit: the call still gets an answer, an error saying so.
      const { n } = JSON.parse(answer) as { n: unknown };
      const error = { name: 'Error', message: `The value is too large to return: ${(err as Error).message}` };
      port.postMessage(JSON.stringify({ n, outcome: { status: 'error', kind: 'throw', error } }));
    }
  });
  port.onMessage.addListener((message: string) => {
    // The worker hears that the call arrived before the page runs it: a call that never arrived
    // goes again as a script injection, one that did is never run twice.
    let n: unknown;
    try {
      n = (JSON.parse(message) as { n: unknown }).n;
      port.postMessage(JSON.stringify({ n, started: true }));
    } catch {
      return;
    }
    node.dispatchEvent(new CustomEvent('c', { detail: message }));
  });
  return true;
}
