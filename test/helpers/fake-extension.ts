/**
 * Test helper: spawns the real `x-ipe-uiux host` process (built into dist/ by the global setup)
 * and plays the browser extension's side over its stdin/stdout frames; also connects bridge
 * clients (what an MCP server does) to its socket. Used by the host, MCP and idea-store
 * integration tests.
 *
 *   const ext = await FakeExtension.start();                 // temp XIPE_UIUX_HOME, hello done
 *   ext.handle('list_tabs', () => ({ browser, tabs: [] }));   // auto-answer relayed requests
 *   const client = await ext.connectClient();                 // authenticated bridge client
 *   const res = await client.request('list_tabs', {});
 *   await client.close();
 *   await ext.dispose();                                      // stdin closed, exit awaited, home removed
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChunkAssembler } from '#shared/chunking.js';
import {
  BRIDGE_MAX_FRAME_BYTES,
  EXTENSION_ORIGIN,
  EXTENSION_TO_HOST_MAX_BYTES,
  HOST_TO_EXTENSION_MAX_BYTES,
  PROTOCOL_VERSION,
} from '#shared/constants.js';
import {
  Envelope,
  type ExtensionHello,
  type ExtensionInfo,
  type HostInfo,
  type LinkError,
  type Request,
  type RequestId,
  type Response,
} from '#shared/envelopes.js';
import { toErrorPayload } from '#shared/errors.js';
import { ClientHandshake, handshakeProof } from '#shared/node/bridge/handshake.js';
import { EndpointDescriptor } from '#shared/node/endpoint-descriptor.js';
import { decodePayload, encodeFrame, FrameReader } from '#shared/node/framing.js';
import { endpointDescriptorPath, logsDir, readToken } from '#shared/node/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_BIN = path.join(REPO_ROOT, 'bin', 'x-ipe-uiux.js');

const DEFAULT_WAIT_MS = 10_000;

export const DEFAULT_EXTENSION_INFO: ExtensionInfo = {
  id: EXTENSION_ORIGIN.slice('chrome-extension://'.length, -1),
  version: '0.0.0-test',
  user_scripts_allowed: true,
  browser: { browser_id: 'chromium-fake', name: 'Chromium', version: '0.0', user_agent: 'fake-extension' },
};

/** Answers one relayed command. Return the result; throw an XipeError (or any error) to fail it. */
export type FakeHandler = (params: unknown, request: Request) => unknown;

export interface ReceivedFrame {
  /** Payload bytes (without the 4-byte header). */
  bytes: number;
  value: unknown;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Collects parsed envelopes and lets tests wait for / take the ones they care about. */
class Inbox {
  readonly messages: Envelope[] = [];
  private readonly taken = new Set<number>();
  private waiters: Array<{ check: () => boolean }> = [];
  private closedReason: string | null = null;

  push(message: Envelope): void {
    this.messages.push(message);
    this.waiters = this.waiters.filter((waiter) => !waiter.check());
  }

  close(reason: string): void {
    this.closedReason = reason;
    this.waiters = this.waiters.filter((waiter) => !waiter.check());
  }

  /** Resolves with the first message (received before or after the call) matching `predicate`. */
  waitFor<T extends Envelope>(
    predicate: (message: Envelope) => message is T,
    options?: { timeoutMs?: number; take?: boolean; what?: string },
  ): Promise<T>;
  waitFor(
    predicate: (message: Envelope) => boolean,
    options?: { timeoutMs?: number; take?: boolean; what?: string },
  ): Promise<Envelope>;
  waitFor(
    predicate: (message: Envelope) => boolean,
    options: { timeoutMs?: number; take?: boolean; what?: string } = {},
  ): Promise<Envelope> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== entry);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a message'}`));
      }, timeoutMs);
      const entry = {
        check: (): boolean => {
          const index = this.messages.findIndex((m, i) => !this.taken.has(i) && predicate(m));
          if (index >= 0) {
            if (options.take === true) this.taken.add(index);
            clearTimeout(timer);
            resolve(this.messages[index] as Envelope);
            return true;
          }
          if (this.closedReason !== null) {
            clearTimeout(timer);
            reject(
              new Error(
                `link closed (${this.closedReason}) while waiting for ${options.what ?? 'a message'}`,
              ),
            );
            return true;
          }
          return false;
        },
      };
      if (!entry.check()) this.waiters.push(entry);
    });
  }
}

const isResponseTo =
  (id: RequestId) =>
  (m: Envelope): m is Response =>
    m.type === 'response' && m.id === id;

// ── the extension side of a real host process ─────────────────────────────────────────────────

export interface FakeExtensionOptions {
  /** XIPE_UIUX_HOME for the host; default a fresh temp dir that dispose() removes. */
  home?: string;
  /** Extra environment for the host process. */
  env?: Record<string, string>;
  /** Host arguments after `host`; default: the extension origin, as Chrome passes it. */
  args?: string[];
  /** Send the extension hello and wait for the host's (default true). */
  hello?: boolean;
  extension?: Partial<ExtensionInfo>;
  /** Auto-answers for relayed commands; requests without a handler wait in `inbox`. */
  handlers?: Record<string, FakeHandler>;
}

export class FakeExtension {
  readonly home: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** Every frame the host wrote to stdout, as received (chunks included). */
  readonly frames: ReceivedFrame[] = [];
  /** Whatever on stdout was not a well-formed frame carrying an envelope within Chrome's cap. */
  readonly stdoutProblems: string[] = [];
  /** Envelopes from the host, chunk streams already reassembled. */
  readonly inbox = new Inbox();
  readonly exited: Promise<ExitInfo>;
  hostInfo: HostInfo | null = null;

  private readonly ownsHome: boolean;
  private readonly handlers = new Map<string, FakeHandler>();
  private readonly reader = new FrameReader(HOST_TO_EXTENSION_MAX_BYTES);
  private readonly assembler = new ChunkAssembler();
  private stderrText = '';
  private nextId = 1;
  private exitInfo: ExitInfo | null = null;

  private constructor(options: FakeExtensionOptions) {
    this.ownsHome = options.home === undefined;
    this.home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
    for (const [command, handler] of Object.entries(options.handlers ?? {}))
      this.handlers.set(command, handler);
    this.child = spawn(process.execPath, [CLI_BIN, 'host', ...(options.args ?? [EXTENSION_ORIGIN])], {
      env: { ...process.env, XIPE_UIUX_HOME: this.home, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (this.child.pid === undefined) throw new Error('could not spawn the host');
    this.pid = this.child.pid;
    this.child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      if (this.stderrText.length < 4 * 1024 * 1024) this.stderrText += chunk.toString('utf8');
    });
    // A host that exits first makes our writes fail with EPIPE; that is the host's business.
    this.child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        this.exitInfo = { code, signal };
        if (this.reader.pending > 0)
          this.stdoutProblems.push(`${this.reader.pending} trailing bytes on stdout`);
        this.inbox.close(`host exited with ${code ?? signal}`);
        resolve(this.exitInfo);
      });
    });
  }

  static async start(options: FakeExtensionOptions = {}): Promise<FakeExtension> {
    const ext = new FakeExtension(options);
    if (options.hello !== false) await ext.hello(options.extension);
    return ext;
  }

  get stderr(): string {
    return this.stderrText;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** Sends the extension hello and waits for the host's answer (HostHello, or a LinkError). */
  async hello(extension: Partial<ExtensionInfo> = {}, protocol = PROTOCOL_VERSION): Promise<HostInfo> {
    const hello: ExtensionHello = {
      type: 'hello',
      role: 'extension',
      protocol,
      extension: { ...DEFAULT_EXTENSION_INFO, ...extension },
    };
    this.send(hello);
    const answer = await this.inbox.waitFor(
      (m) => (m.type === 'hello' && m.role === 'host') || m.type === 'error',
      {
        take: true,
        what: 'the host hello',
      },
    );
    if (answer.type !== 'hello' || answer.role !== 'host')
      throw new Error(`handshake refused: ${JSON.stringify(answer)}`);
    this.hostInfo = answer.host;
    return answer.host;
  }

  /** Writes one frame to the host's stdin (no validation: tests may send anything). */
  send(message: unknown): void {
    this.child.stdin?.write(encodeFrame(message, EXTENSION_TO_HOST_MAX_BYTES));
  }

  sendRaw(bytes: Buffer): void {
    this.child.stdin?.write(bytes);
  }

  /** Registers (or replaces) the auto-answer for a relayed command. */
  handle(command: string, handler: FakeHandler): void {
    this.handlers.set(command, handler);
  }

  /** Sends a request as the extension (e.g. the toolbar saving) and waits for the host's response. */
  async request(command: string, params: unknown, options: { timeoutMs?: number } = {}): Promise<Response> {
    const id = `ext-${this.nextId++}`;
    this.send({ type: 'request', id, command, params });
    return this.inbox.waitFor(isResponseTo(id), {
      take: true,
      timeoutMs: options.timeoutMs,
      what: `response ${id}`,
    });
  }

  /** Sends an event as the extension; the host broadcasts it to authenticated bridge clients. */
  emit(event: string, data: unknown): void {
    this.send({ type: 'event', event, data });
  }

  /** Answers a relayed request by hand (for requests that had no handler). */
  respond(id: RequestId, outcome: { result: unknown } | { error: { code: string; message: string } }): void {
    this.send(
      'result' in outcome
        ? { type: 'response', id, ok: true, result: outcome.result }
        : { type: 'response', id, ok: false, error: outcome.error },
    );
  }

  /** The next relayed request (optionally of one command) that no handler answered. */
  nextRequest(command?: string, options: { timeoutMs?: number } = {}): Promise<Request> {
    return this.inbox.waitFor(
      (m): m is Request => m.type === 'request' && (command === undefined || m.command === command),
      { take: true, timeoutMs: options.timeoutMs, what: `a relayed ${command ?? ''} request` },
    );
  }

  descriptorPath(): string {
    return endpointDescriptorPath(this.home, this.pid);
  }

  /** Waits for the host's endpoint descriptor and returns it, parsed. */
  async descriptor(timeoutMs = DEFAULT_WAIT_MS): Promise<EndpointDescriptor> {
    const file = this.descriptorPath();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return EndpointDescriptor.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`no descriptor at ${file}: ${(err as Error).message}`);
        if (this.hasExited) throw new Error(`host exited before writing ${file}:\n${this.stderrText}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  token(): string {
    const token = readToken(this.home);
    if (token === null) throw new Error(`no token in ${this.home}`);
    return token;
  }

  /** Connects a bridge client to this host; by default it says hello with the right token. */
  async connectClient(options: BridgeClientOptions = {}): Promise<BridgeTestClient> {
    const { endpoint } = await this.descriptor();
    return BridgeTestClient.connect(endpoint, { token: this.token(), ...options });
  }

  logFile(): string {
    return path.join(logsDir(this.home), 'host.log');
  }

  /** host.log parsed as JSON lines. */
  logEntries(): Array<Record<string, unknown>> {
    let text = '';
    try {
      text = fs.readFileSync(this.logFile(), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Closes the host's stdin (what Chrome does when the port closes) and waits for it to exit. */
  async close(timeoutMs = DEFAULT_WAIT_MS): Promise<ExitInfo> {
    this.child.stdin?.end();
    return this.waitForExit(timeoutMs);
  }

  async waitForExit(timeoutMs = DEFAULT_WAIT_MS): Promise<ExitInfo> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`host did not exit within ${timeoutMs} ms:\n${this.stderrText}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the host (gracefully, else SIGKILL) and removes the temp home if we created it. */
  async dispose(): Promise<void> {
    if (!this.hasExited) {
      try {
        await this.close(5_000);
      } catch {
        // killed by close()'s timeout
      }
    }
    if (this.ownsHome) fs.rmSync(this.home, { recursive: true, force: true });
  }

  private onStdout(chunk: Buffer): void {
    let payloads: Buffer[];
    try {
      payloads = this.reader.push(chunk);
    } catch (err) {
      this.stdoutProblems.push(`bad frame header: ${(err as Error).message}`);
      return;
    }
    for (const payload of payloads) {
      let value: unknown;
      try {
        value = decodePayload(payload);
      } catch (err) {
        this.stdoutProblems.push((err as Error).message);
        continue;
      }
      this.frames.push({ bytes: payload.length, value });
      const parsed = Envelope.safeParse(value);
      if (!parsed.success) {
        this.stdoutProblems.push(`not an envelope: ${payload.toString('utf8').slice(0, 200)}`);
        continue;
      }
      this.onEnvelope(parsed.data);
    }
  }

  private onEnvelope(envelope: Envelope): void {
    if (envelope.type === 'chunk') {
      const whole = this.assembler.push(envelope);
      if (whole === null) return;
      const inner = Envelope.safeParse(JSON.parse(whole));
      if (!inner.success) {
        this.stdoutProblems.push(`reassembled stream ${envelope.stream} is not an envelope`);
        return;
      }
      this.onEnvelope(inner.data);
      return;
    }
    if (envelope.type === 'request') {
      const handler = this.handlers.get(envelope.command);
      if (handler !== undefined) {
        void this.answer(envelope, handler);
        return;
      }
    }
    this.inbox.push(envelope);
  }

  private async answer(request: Request, handler: FakeHandler): Promise<void> {
    try {
      const result = await handler(request.params, request);
      this.send({ type: 'response', id: request.id, ok: true, result: result ?? null });
    } catch (err) {
      this.send({ type: 'response', id: request.id, ok: false, error: toErrorPayload(err) });
    }
  }
}

// ── a bridge client (what the MCP server does) ────────────────────────────────────────────────

export interface BridgeClientOptions {
  /** Send a hello at connect (default true); `false` to test the hello timeout or a bad first frame. */
  hello?: boolean;
  /** Overrides merged into the hello (e.g. a wrong protocol). */
  helloOverrides?: Record<string, unknown>;
  /** Who the client says it is in its proof (its workspace decides where a save goes). */
  clientInfo?: { name: string; pid: number; workspace?: string };
  token?: string;
}

export class BridgeTestClient {
  readonly inbox = new Inbox();
  /** Frames that did not parse as envelopes. */
  readonly problems: string[] = [];
  hostInfo: HostInfo | null = null;
  /** The LinkError the host sent instead of its hello, if the handshake was refused. */
  rejection: LinkError | null = null;
  readonly closed: Promise<void>;
  private readonly reader = new FrameReader(BRIDGE_MAX_FRAME_BYTES);
  private nextId = 1;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      let payloads: Buffer[];
      try {
        payloads = this.reader.push(chunk);
      } catch (err) {
        this.problems.push((err as Error).message);
        socket.destroy();
        return;
      }
      for (const payload of payloads) {
        const parsed = Envelope.safeParse(decodePayload(payload));
        if (parsed.success) this.inbox.push(parsed.data);
        else this.problems.push(payload.toString('utf8').slice(0, 200));
      }
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.inbox.close('socket closed');
        resolve();
      }),
    );
  }

  /** Connects; unless `hello: false`, says hello and waits for the host's answer (HostHello or LinkError). */
  static async connect(endpoint: string, options: BridgeClientOptions = {}): Promise<BridgeTestClient> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(endpoint, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
    });
    const client = new BridgeTestClient(socket);
    if (options.hello !== false) {
      const answer = await client.hello(options.token ?? '', options.helloOverrides, options.clientInfo);
      if (answer.type === 'hello' && answer.role === 'host') client.hostInfo = answer.host;
      if (answer.type === 'error') client.rejection = answer;
    }
    return client;
  }

  /**
   * Runs the client side of the handshake with `token` (the real one, `ClientHandshake`) and
   * returns the host's last answer: HostHello, or a LinkError before closing. `overrides` are
   * merged into the hello (a wrong protocol, a bad nonce). With a token other than the host's,
   * it sends its proof anyway (as an intruder would), so the host refuses it.
   */
  async hello(
    token: string,
    overrides: Record<string, unknown> = {},
    clientInfo: { name: string; pid: number; workspace?: string } = {
      name: 'bridge-test-client',
      pid: process.pid,
    },
  ): Promise<Envelope> {
    const handshake = new ClientHandshake(token, clientInfo, 'the host');
    this.send({ ...handshake.hello, ...overrides });
    const first = await this.inbox.waitFor((m) => m.type === 'challenge' || m.type === 'error', {
      take: true,
      what: 'the host challenge',
    });
    if (first.type !== 'challenge') return first;
    let proof: unknown;
    try {
      const step = handshake.step(first);
      if (!('send' in step)) return first;
      proof = step.send;
    } catch {
      // The host did not prove `token`: a real client stops here; an intruder with a wrong
      // token sends its proof anyway, which is what the host's own check is tested with.
      const proofOf = handshakeProof(token, 'client', handshake.hello.nonce, first.nonce);
      proof = { type: 'proof', proof: proofOf, client: { name: 'bridge-test-client', pid: process.pid } };
    }
    this.send(proof);
    return this.inbox.waitFor((m) => m.type === 'hello' || m.type === 'error', {
      take: true,
      what: 'the host hello',
    });
  }

  get authenticated(): boolean {
    return this.hostInfo !== null;
  }

  send(message: unknown): void {
    this.socket.write(encodeFrame(message, BRIDGE_MAX_FRAME_BYTES));
  }

  /** Sends a request and waits for its response (matched by id; default ids are `c-<n>`). */
  async request(
    command: string,
    params: unknown,
    options: { id?: RequestId; timeout_ms?: number; waitMs?: number } = {},
  ): Promise<Response> {
    const id = options.id ?? `c-${this.nextId++}`;
    const request: Request = { type: 'request', id, command, params };
    if (options.timeout_ms !== undefined) request.timeout_ms = options.timeout_ms;
    this.send(request);
    return this.inbox.waitFor(isResponseTo(id), {
      take: true,
      timeoutMs: options.waitMs,
      what: `response ${id}`,
    });
  }

  /** The next event (optionally by name) the host forwarded. */
  nextEvent(
    name?: string,
    options: { timeoutMs?: number } = {},
  ): Promise<Extract<Envelope, { type: 'event' }>> {
    return this.inbox.waitFor(
      (m): m is Extract<Envelope, { type: 'event' }> =>
        m.type === 'event' && (name === undefined || m.event === name),
      { take: true, timeoutMs: options.timeoutMs, what: `event ${name ?? ''}` },
    );
  }

  async close(): Promise<void> {
    this.socket.end();
    await this.closed;
  }
}
