import {
  CAPTURE_QUEUE_EVENT,
  CaptureQueueSnapshot,
  type QueueEntry,
} from '#shared/commands/capture-queue.js';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { Envelope, Event, ExtensionInfo, Progress, Request, Response } from '#shared/envelopes.js';
import { XipeError } from '#shared/errors.js';
import { EXTENSION_NOT_CONNECTED_MESSAGE } from './extension-requests.js';
import { failureOf, requestIdOf, sendToExtension } from './responses.js';
import type { RouterCore } from './router-ports.js';

/**
 * The extension's side of the router: the native link's hello, the extension's answers to
 * relayed requests (mapped back through the request table), its own requests to host handlers,
 * and its events (handed to `publish`). The host's own requests to the extension go out here too.
 */
export class ExtensionSide {
  /** Aborted when the extension goes: host handlers it started stop with it. */
  private abort = new AbortController();
  private infoValue: ExtensionInfo | null = null;
  private connectedValue = false;
  private queue: QueueEntry[] | null = null;

  constructor(
    private readonly core: RouterCore,
    private readonly publish: (event: Event) => void,
  ) {}

  get connected(): boolean {
    return this.connectedValue;
  }

  get info(): ExtensionInfo | null {
    return this.infoValue;
  }

  /** The capture queue as the extension last said (for host_status); null before it said anything. */
  get captureQueue(): QueueEntry[] | null {
    return this.connectedValue ? this.queue : null;
  }

  handleEnvelope(envelope: Envelope, payloadBytes: number): void {
    if (this.core.isStopped()) return;
    const { logger } = this.core.options;
    switch (envelope.type) {
      case 'hello':
        this.onHello(envelope);
        return;
      case 'request':
        void this.onRequest(envelope, payloadBytes);
        return;
      case 'response':
        if (!this.core.requests.settle(envelope))
          logger.debug('dropped a late or unknown response from the extension', { id: envelope.id });
        return;
      case 'event':
        if (!this.connectedValue) {
          logger.warn('dropped an event sent before the extension hello', { event: envelope.event });
          return;
        }
        if (envelope.event === CAPTURE_QUEUE_EVENT) {
          // Kept for host_status (bridge_status), not passed on: it changes with every capture.
          const snapshot = CaptureQueueSnapshot.safeParse(envelope.data);
          if (snapshot.success) this.queue = snapshot.data.jobs;
          return;
        }
        this.publish(envelope);
        return;
      case 'error':
        logger.warn('extension reported a link error', {
          code: envelope.error.code,
          message: envelope.error.message,
        });
        return;
      case 'progress':
        this.core.requests.progress(envelope);
        return;
      case 'ping':
      case 'cancel':
        return; // a ping only keeps the service worker alive; the host's handlers are not cancelled
      case 'chunk':
        return; // reassembled by the native link before it reaches us
    }
  }

  /** A frame from the extension that is JSON but not an envelope: answer it if it was a request. */
  handleInvalid(raw: unknown, error: string): void {
    if (this.core.isStopped()) return; // like handleEnvelope: nothing is answered once stopping
    this.core.options.logger.warn('ignored an invalid message from the extension', { error });
    const id = requestIdOf(raw);
    if (id !== null) this.send(failureOf(id, 'VALIDATION_ERROR', `Invalid message: ${error}`));
  }

  /** The native link is gone (or the host is stopping): nothing can be relayed any more. */
  gone(reason: string): void {
    if (this.connectedValue) this.core.options.logger.info('extension disconnected', { reason });
    this.connectedValue = false;
    this.queue = null;
    this.abort.abort();
    this.abort = new AbortController();
    this.core.requests.failAll(reason);
  }

  /**
   * The host's own request to the extension, under a relay id like relayed ones (ids never clash).
   * Used by host handlers through `ctx.extension`.
   */
  request(
    command: string,
    params: unknown,
    options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (progress: Progress) => void },
  ): Promise<unknown> {
    if (this.core.isStopped() || !this.connectedValue) {
      return Promise.reject(
        new XipeError('EXTENSION_NOT_CONNECTED', EXTENSION_NOT_CONNECTED_MESSAGE, { command }),
      );
    }
    return this.core.requests.request(command, params, options);
  }

  private onHello(hello: Extract<Envelope, { type: 'hello' }>): void {
    const { logger, hostInfo, onFatal } = this.core.options;
    if (hello.role !== 'extension' || hello.protocol !== PROTOCOL_VERSION) {
      const message =
        hello.role !== 'extension'
          ? `Expected an extension hello on the native link, got role '${hello.role}'`
          : `Protocol mismatch: the extension speaks version ${hello.protocol}, this host speaks ${PROTOCOL_VERSION}. ` +
            'Rebuild/reinstall so the extension and `x-ipe-uiux install` come from the same version.';
      logger.error('native link handshake failed', { role: hello.role, protocol: hello.protocol });
      this.send({ type: 'error', error: { code: 'PROTOCOL_ERROR', message } });
      onFatal('protocol mismatch on the native link');
      return;
    }
    const first = !this.connectedValue;
    this.infoValue = hello.extension;
    this.connectedValue = true;
    logger.info(first ? 'extension connected' : 'extension said hello again', {
      extension_id: hello.extension.id,
      extension_version: hello.extension.version,
      browser: hello.extension.browser.browser_id,
      user_scripts_allowed: hello.extension.user_scripts_allowed,
    });
    this.send({ type: 'hello', role: 'host', protocol: PROTOCOL_VERSION, host: hostInfo() });
  }

  private async onRequest(request: Request, payloadBytes: number): Promise<void> {
    if (!this.connectedValue) {
      this.send(failureOf(request.id, 'PROTOCOL_ERROR', 'Send the extension hello before any request'));
      return;
    }
    const spec = this.core.spec(request.command);
    if (spec === undefined) {
      this.send(this.core.unknownCommand(request));
      return;
    }
    if (spec.handledBy !== 'host') {
      const message = `'${request.command}' is handled by the extension, not the host`;
      this.send(failureOf(request.id, 'VALIDATION_ERROR', message));
      return;
    }
    const response: Response = await this.core.runHandler(request, {
      source: 'extension',
      workspace: undefined,
      payloadBytes,
      signal: this.abort.signal,
    });
    this.send(response);
  }

  private send(message: Envelope): void {
    sendToExtension(this.core.options.extension, message, this.core.options.logger);
  }
}
