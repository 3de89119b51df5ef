/**
 * What the toolbar's worker side needs from the native link: requests to host commands and
 * fire-and-forget events. The background's native port implements it; tests pass a fake.
 */
export interface HostLink {
  /** Sends a request envelope to the host and resolves with its result (rejects with XipeError). */
  request(command: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  /** Sends an `event` envelope; dropped when the host is not connected (nobody is listening). */
  emit(event: string, data: unknown): void;
  /** The port is open and the host answered the hello. */
  readonly connected: boolean;
}
