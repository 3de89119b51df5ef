import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { XipeError } from './errors.js';
import { type Outcome, RequestTable } from './request-table.js';

interface Meta {
  command: string;
  owner?: string;
}

const table = () => new RequestTable<number, Meta>({ peer: 'The extension' });

describe('RequestTable', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles a request with its answer, once', () => {
    const t = table();
    const outcomes: Outcome[] = [];
    t.track(1, { command: 'list_tabs' }, { waitMs: 1000 }, (o) => outcomes.push(o));
    expect(t.size).toBe(1);
    expect(t.settle(1, { ok: true, result: { tabs: [] } })).toBe(true);
    expect(t.settle(1, { ok: true, result: 'late' })).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(outcomes).toEqual([{ ok: true, result: { tabs: [] } }]);
    expect(t.size).toBe(0);
  });

  it("turns a failure answer into the peer's XipeError", () => {
    const t = table();
    let outcome: Outcome | null = null;
    t.track(1, { command: 'inject_script' }, { waitMs: 1000 }, (o) => {
      outcome = o;
    });
    t.settle(1, { ok: false, error: { code: 'TAB_NOT_FOUND', message: 'gone', details: { tab_id: 3 } } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TAB_NOT_FOUND', message: 'gone' } });
    expect((outcome as unknown as { error: XipeError }).error).toBeInstanceOf(XipeError);
    expect((outcome as unknown as { error: XipeError }).error.details).toEqual({ tab_id: 3 });
  });

  it('answers TIMEOUT naming the peer, the command and the wait, then ignores the late answer', () => {
    const t = new RequestTable<string, Meta>({ peer: 'Host pid 42', details: () => ({ pid: 42 }) });
    const outcomes: Outcome[] = [];
    t.track('a', { command: 'list_tabs' }, { waitMs: 250 }, (o) => outcomes.push(o));
    vi.advanceTimersByTime(249);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes).toHaveLength(1);
    const [first] = outcomes;
    if (first === undefined || first.ok) throw new Error('expected a failure');
    expect(first.error.code).toBe('TIMEOUT');
    expect(first.error.message).toMatch(/^Host pid 42 did not answer 'list_tabs' within 250 ms/);
    expect(first.error.details).toEqual({ command: 'list_tabs', timeout_ms: 250, pid: 42 });
    expect(t.settle('a', { ok: true, result: 1 })).toBe(false);
    expect(outcomes).toHaveLength(1);
  });

  it('cancels on abort and forgets the listener once settled', () => {
    const t = table();
    const controller = new AbortController();
    const outcomes: Outcome[] = [];
    t.track(1, { command: 'save' }, { waitMs: 1000, signal: controller.signal }, (o) => outcomes.push(o));
    controller.abort();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      ok: false,
      error: { code: 'TIMEOUT', details: { command: 'save', cancelled: true } },
    });
    expect(t.size).toBe(0);

    const other = new AbortController();
    const remove = vi.spyOn(other.signal, 'removeEventListener');
    t.track(2, { command: 'save' }, { waitMs: 1000, signal: other.signal }, () => undefined);
    t.settle(2, { ok: true, result: null });
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('does not register a request whose signal is already aborted', () => {
    const t = table();
    const outcomes: Outcome[] = [];
    const tracked = t.track(1, { command: 'x' }, { waitMs: 10, signal: AbortSignal.abort() }, (o) =>
      outcomes.push(o),
    );
    expect(tracked).toBe(false);
    expect(t.size).toBe(0);
    expect(outcomes[0]).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('fails everything pending with one error or one per request', () => {
    const t = table();
    const seen: string[] = [];
    const record = (o: Outcome): void => {
      seen.push(o.ok ? 'ok' : `${o.error.code}:${o.error.message}`);
    };
    t.track(1, { command: 'a' }, { waitMs: 1000 }, record);
    t.track(2, { command: 'b' }, { waitMs: 1000 }, record);
    t.failAll((meta) => new XipeError('BACKEND_UNREACHABLE', `lost ${meta.command}`));
    expect(seen).toEqual(['BACKEND_UNREACHABLE:lost a', 'BACKEND_UNREACHABLE:lost b']);
    t.track(3, { command: 'c' }, { waitMs: 1000 }, record);
    t.failAll(new XipeError('EXTENSION_NOT_CONNECTED', 'gone'));
    expect(seen.at(-1)).toBe('EXTENSION_NOT_CONNECTED:gone');
    vi.advanceTimersByTime(5000);
    expect(seen).toHaveLength(3);
  });

  it('drops requests without settling them (their asker left)', () => {
    const t = table();
    const done = vi.fn();
    t.track(1, { command: 'a', owner: 'x' }, { waitMs: 1000 }, done);
    t.track(2, { command: 'b', owner: 'y' }, { waitMs: 1000 }, done);
    t.track(3, { command: 'c', owner: 'x' }, { waitMs: 1000 }, done);
    expect(t.dropWhere((m) => m.owner === 'x')).toBe(2);
    expect(t.get(2)).toEqual({ command: 'b', owner: 'y' });
    expect(t.drop(2)).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(done).not.toHaveBeenCalled();
    expect(t.size).toBe(0);
  });

  it('request(): resolves with the result, rejects with the error, and forgets a request whose send throws', async () => {
    const t = table();
    const ok = t.request(1, { command: 'a' }, { waitMs: 1000 }, () => undefined);
    t.settle(1, { ok: true, result: 7 });
    await expect(ok).resolves.toBe(7);

    const failed = t.request(2, { command: 'b' }, { waitMs: 1000 }, () => {
      throw new XipeError('PAYLOAD_TOO_LARGE', 'too big');
    });
    await expect(failed).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'too big' });
    const crashed = t.request(3, { command: 'c' }, { waitMs: 1000 }, () => {
      throw new Error('boom');
    });
    await expect(crashed).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'boom' });
    expect(t.size).toBe(0);
  });

  it('pauses the limit while the peer says the request is queued, and counts it in full from its start', () => {
    const t = table();
    const outcomes: Outcome[] = [];
    t.track(1, { command: 'capture_screenshot' }, { waitMs: 1_000 }, (o) => outcomes.push(o));
    vi.advanceTimersByTime(900);
    expect(t.hold(1, 'queued', 60_000)).toBe(true);
    vi.advanceTimersByTime(30_000);
    expect(outcomes).toEqual([]);
    t.hold(1, 'started', 60_000);
    vi.advanceTimersByTime(999);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes[0]).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(t.hold(1, 'queued', 60_000)).toBe(false);
  });

  it('bounds a queued wait by the limit it is given', () => {
    const t = table();
    const outcomes: Outcome[] = [];
    t.track(1, { command: 'capture_area' }, { waitMs: 100 }, (o) => outcomes.push(o));
    t.hold(1, 'queued', 5_000);
    vi.advanceTimersByTime(5_099);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes[0]).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('lets the owner update the meta while the request is pending', () => {
    const t = new RequestTable<number, { command: string; written: boolean }>({ peer: 'Host pid 1' });
    const seen: boolean[] = [];
    t.track(1, { command: 'a', written: false }, { waitMs: 1000 }, () => undefined);
    const meta = t.get(1);
    if (meta !== undefined) meta.written = true;
    t.failAll((m) => {
      seen.push(m.written);
      return new XipeError('BACKEND_UNREACHABLE', 'closed');
    });
    expect(seen).toEqual([true]);
  });
});
