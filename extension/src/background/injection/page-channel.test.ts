import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (value: unknown) => void;

/** A port as Chrome hands it over: messages in, disconnect out, what was posted. */
class FakePort {
  posted: unknown[] = [];
  disconnected = false;
  failPost = false;
  private readonly messages: Listener[] = [];
  private readonly closes: Array<() => void> = [];
  onMessage = { addListener: (listener: Listener) => this.messages.push(listener) };
  onDisconnect = { addListener: (listener: () => void) => this.closes.push(listener) };
  postMessage(message: unknown): void {
    if (this.failPost) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(message);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  receive(message: unknown): void {
    for (const listener of this.messages) listener(message);
  }
  close(): void {
    for (const listener of this.closes) listener();
  }
}

const browser = vi.hoisted(() => ({
  onPort: null as ((port: unknown, tabId: number) => void) | null,
  executeFunction: vi.fn(async () => [{ result: true }]),
}));
vi.mock('../../platform/browser.js', () => ({
  connectedPages: (_name: string, onPort: (port: unknown, tabId: number) => void) => {
    browser.onPort = onPort;
  },
  executeFunction: browser.executeFunction,
}));

const { NOT_SENT, PageChannel, PageChannels, linkPage } = await import('./page-channel.js');

const answer = (n: number, body: Record<string, unknown>) => JSON.stringify({ n, ...body });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PageChannel', () => {
  let port: FakePort;
  let channel: InstanceType<typeof PageChannel>;
  beforeEach(() => {
    port = new FakePort();
    channel = new PageChannel(port as never);
    port.onMessage.addListener((m) => channel.onMessage(m));
  });

  it('asks for the kept function by id and resolves with the outcome the page relays', async () => {
    const first = channel.call('k1');
    const second = channel.call('k2');
    expect(port.posted.map((m) => JSON.parse(m as string))).toEqual([
      { n: 1, id: 'k1' },
      { n: 2, id: 'k2' },
    ]);
    port.receive(answer(2, { outcome: 'xipe:not-kept' }));
    port.receive(answer(1, { outcome: { status: 'ok', value: 7 } }));
    await expect(first).resolves.toEqual({ status: 'ok', value: 7 });
    await expect(second).resolves.toBe('xipe:not-kept');
  });

  it('waits past `started` for the outcome of a promise', async () => {
    const call = channel.call('k1');
    port.receive(answer(1, { started: true }));
    let settled = false;
    void call.then(() => {
      settled = true;
    });
    await tick();
    expect(settled).toBe(false);
    port.receive(answer(1, { outcome: { status: 'ok', value: null } }));
    await expect(call).resolves.toEqual({ status: 'ok', value: null });
  });

  it('says NOT_SENT when the port closed before the page answered: nothing ran', async () => {
    const call = channel.call('k1');
    channel.onClose();
    await expect(call).resolves.toBe(NOT_SENT);
    port.failPost = true;
    await expect(channel.call('k1')).resolves.toBe(NOT_SENT);
  });

  it('gives no outcome (null) when the port closed after the call started', async () => {
    const call = channel.call('k1');
    port.receive(answer(1, { started: true }));
    channel.onClose();
    await expect(call).resolves.toBeNull();
  });

  it('ignores what is not an answer to a waiting call', async () => {
    const call = channel.call('k1');
    for (const junk of [{ n: 1 }, 'not json', answer(9, { outcome: 1 }), JSON.stringify({ n: '1' }), '[]'])
      port.receive(junk);
    port.receive(answer(1, { outcome: 2 }));
    await expect(call).resolves.toBe(2);
  });
});

describe('PageChannels', () => {
  beforeEach(() => {
    browser.executeFunction.mockClear();
  });

  it('keeps the latest port of a tab, and forgets it when it closes', async () => {
    const channels = new PageChannels('ev', 'name');
    channels.link(4, async () => false);
    await tick();
    const [a, b] = [new FakePort(), new FakePort()];
    browser.onPort?.(a, 4);
    const first = channels.get(4);
    browser.onPort?.(b, 4);
    expect(a.disconnected).toBe(true);
    expect(channels.get(4)).not.toBe(first);
    b.close();
    expect(channels.get(4)).toBeUndefined();
  });

  it('links a tab once at a time, only when the page runtime listens, and gives up after three tries', async () => {
    const channels = new PageChannels('ev', 'name');
    const listen = vi.fn(async () => true);
    channels.link(5, listen);
    channels.link(5, listen);
    await tick();
    expect(listen).toHaveBeenCalledTimes(1);
    expect(listen).toHaveBeenCalledWith('ev');
    expect(browser.executeFunction).toHaveBeenCalledTimes(1);
    expect(browser.executeFunction.mock.calls[0]).toMatchObject([
      { target: { tabId: 5, frameIds: [0] }, world: 'ISOLATED', args: ['ev', 'name'] },
    ]);
    const deaf = vi.fn(async () => false);
    for (let i = 0; i < 5; i += 1) {
      channels.link(6, deaf);
      await tick();
    }
    expect(deaf).toHaveBeenCalledTimes(3);
    expect(browser.executeFunction).toHaveBeenCalledTimes(1);
    browser.onPort?.(new FakePort(), 5);
    channels.link(5, listen);
    await tick();
    expect(listen).toHaveBeenCalledTimes(1);
  });
});

describe('linkPage (the content script)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A document, events and `chrome.runtime.connect` as the isolated world has them. */
  function isolatedWorld(maxMessage = Number.POSITIVE_INFINITY) {
    class MouseEvent extends Event {
      relatedTarget: EventTarget | null;
      constructor(type: string, init: EventInit & { relatedTarget?: EventTarget | null }) {
        super(type, init);
        this.relatedTarget = init.relatedTarget ?? null;
      }
    }
    const port = new FakePort();
    const postMessage = port.postMessage.bind(port);
    port.postMessage = (message: unknown) => {
      if (String(message).length > maxMessage)
        throw new Error('Message length exceeded maximum allowed length.');
      postMessage(message);
    };
    const connect = vi.fn(() => port);
    vi.stubGlobal('document', Object.assign(new EventTarget(), { createElement: () => new EventTarget() }));
    vi.stubGlobal('MouseEvent', MouseEvent);
    vi.stubGlobal('chrome', { runtime: { connect } });
    return { port, connect };
  }

  it('connects only when the page runtime took the node, then relays calls and answers', () => {
    const world = isolatedWorld();
    expect(linkPage('ev', 'calls')).toBe(false);
    expect(world.connect).not.toHaveBeenCalled();

    let node: EventTarget | null = null;
    document.addEventListener('ev', (event) => {
      node = (event as MouseEvent).relatedTarget;
      event.preventDefault();
      node?.addEventListener('c', (call) => {
        const { n } = JSON.parse((call as CustomEvent<string>).detail) as { n: number };
        node?.dispatchEvent(new CustomEvent('r', { detail: answer(n, { outcome: 'done' }) }));
      });
    });
    expect(linkPage('ev', 'calls')).toBe(true);
    expect(world.connect).toHaveBeenCalledWith({ name: 'calls' });
    world.port.receive(JSON.stringify({ n: 3, id: 'k1' }));
    // First that the call arrived (before the page runs it), then the page's answer.
    expect(world.port.posted).toEqual([answer(3, { started: true }), answer(3, { outcome: 'done' })]);
    world.port.receive('not json');
    expect(world.port.posted).toHaveLength(2);
  });

  it('answers with an error when the value is over the message size limit', () => {
    const world = isolatedWorld(300);
    document.addEventListener('ev', (event) => {
      event.preventDefault();
      const node = (event as MouseEvent).relatedTarget;
      node?.addEventListener('c', () => {
        node.dispatchEvent(new CustomEvent('r', { detail: answer(4, { outcome: 'x'.repeat(400) }) }));
      });
    });
    linkPage('ev', 'calls');
    world.port.receive(JSON.stringify({ n: 4, id: 'k1' }));
    expect(world.port.posted.map((m) => JSON.parse(m as string))).toEqual([
      { n: 4, started: true },
      {
        n: 4,
        outcome: {
          status: 'error',
          kind: 'throw',
          error: {
            name: 'Error',
            message: 'The value is too large to return: Message length exceeded maximum allowed length.',
          },
        },
      },
    ]);
  });
});
