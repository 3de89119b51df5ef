import { describe, expect, it } from 'vitest';
import type { CaptureEvent, EventsSinceResult } from '#shared/index.js';
import { XipeError } from '#shared/index.js';
import { silentLogger } from '../../test-support/fake-bridge.js';
import { CaptureInbox, type InboxHost } from './capture-inbox.js';

const event = (seq: number, browser = 'b'): CaptureEvent => ({
  seq,
  type: 'color_picked',
  time: 't',
  browser_id: browser,
  tab: { id: 1, url: 'u' },
  data: {},
});

/** A host's ring: answers events_since like the real one, and counts the asks. */
class FakeRing implements InboxHost {
  events: CaptureEvent[] = [];
  dropped = 0;
  asks: number[] = [];
  gate: Promise<void> | null = null;
  constructor(readonly key: string) {}
  add(...seqs: number[]): void {
    this.events.push(...seqs.map((s) => event(s, this.key)));
  }
  async fetch(after: number): Promise<EventsSinceResult> {
    this.asks.push(after);
    if (this.gate) await this.gate;
    const last = this.events.at(-1)?.seq ?? 0;
    const from = after > last ? 0 : after; // like the real ring: a cursor from the future starts over
    return {
      events: this.events.filter((e) => e.seq > from),
      dropped: from === 0 ? this.dropped : 0,
      last_seq: last,
    };
  }
}

const inbox = (hosts: () => InboxHost[], capacity?: number) =>
  new CaptureInbox(
    {
      hosts: async () => {
        const list = hosts();
        if (list.length === 0) throw new XipeError('BACKEND_UNREACHABLE', 'none');
        return list;
      },
    },
    { logger: silentLogger(), rescanMs: 20, ...(capacity !== undefined ? { capacity } : {}) },
  );

describe('CaptureInbox', () => {
  it('catches up from every host on the first wait, then delivers nothing twice', async () => {
    const a = new FakeRing('a');
    const b = new FakeRing('b');
    a.add(1, 2);
    b.add(1);
    const box = inbox(() => [a, b]);
    const first = await box.wait({ timeoutMs: 1_000 });
    expect(first.events.map((e) => `${e.browser_id}${e.seq}`).sort()).toEqual(['a1', 'a2', 'b1']);
    a.add(3);
    const second = await box.wait({ timeoutMs: 1_000 });
    expect(second.events.map((e) => e.seq)).toEqual([3]);
    expect(a.asks).toEqual([0, 2]);
    expect((await box.wait({ timeoutMs: 0 })).events).toEqual([]);
  });

  it('wakes a waiter on a push, and finds a host that appears while waiting', async () => {
    const a = new FakeRing('a');
    const hosts: InboxHost[] = [a];
    const box = inbox(() => hosts);
    const waiting = box.wait({ timeoutMs: 5_000 });
    await new Promise((r) => setTimeout(r, 5));
    a.add(1);
    box.notify(a);
    expect((await waiting).events.map((e) => e.seq)).toEqual([1]);

    const late = new FakeRing('late');
    late.add(1);
    const rescan = box.wait({ timeoutMs: 5_000 });
    hosts.push(late);
    expect((await rescan).events.map((e) => e.browser_id)).toEqual(['late']);
  });

  it('keeps events while nobody waits, bounded, and counts what fell out', async () => {
    const a = new FakeRing('a');
    a.dropped = 2; // the host's own ring lost two before we asked
    a.add(3, 4, 5, 6);
    const box = inbox(() => [a], 3);
    await box.sync();
    expect(box.pending).toBe(3);
    expect(box.take()).toEqual({ events: [event(4, 'a'), event(5, 'a'), event(6, 'a')], dropped: 3 });
    expect(box.take()).toEqual({ events: [], dropped: 0 });
  });

  it('never overlaps pulls from one host (a push during a pull asks again after it)', async () => {
    const a = new FakeRing('a');
    let open: () => void = () => {};
    a.gate = new Promise((r) => {
      open = r;
    });
    a.add(1);
    const box = inbox(() => [a]);
    const syncing = box.sync();
    a.add(2);
    box.notify(a);
    box.notify(a);
    a.gate = null;
    open();
    await syncing;
    await new Promise((r) => setTimeout(r, 5));
    expect(box.take().events.map((e) => e.seq)).toEqual([1, 2]);
    expect(a.asks).toEqual([0, 2]);
  });

  it('starts over for a host whose numbering went backwards', async () => {
    const a = new FakeRing('a');
    a.add(1, 2, 3);
    const box = inbox(() => [a]);
    await box.sync();
    box.take();
    a.events = [event(1, 'a')];
    await box.sync();
    expect(box.take().events.map((e) => e.seq)).toEqual([1]);
  });

  it('fails at once when no host is reachable, and returns empty after the timeout otherwise', async () => {
    await expect(inbox(() => []).wait({ timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'BACKEND_UNREACHABLE',
    });
    const box = inbox(() => [new FakeRing('a')]);
    expect(await box.wait({ timeoutMs: 30 })).toEqual({ events: [], dropped: 0 });
    const abort = new AbortController();
    const waiting = box.wait({ timeoutMs: 60_000, signal: abort.signal });
    abort.abort();
    expect(await waiting).toEqual({ events: [], dropped: 0 });
  });
});
