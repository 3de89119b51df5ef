import type { CaptureEventName, ToolbarRequest, ToolbarRequestType } from '#shared/toolbar-messages.js';
import type { StagedCaptures } from '../deep-capture/staged.js';
import type { CollectionStore, StoredCrop } from './collection-store.js';
import type { HostLink } from './host-link.js';

/** What the toolbar's worker side uses; injected so the handler runs in unit tests with fakes. */
export interface ToolbarDeps {
  store: CollectionStore;
  /** Deep captures staged with their items until Save. */
  staged: Pick<StagedCaptures, 'take'>;
  host: HostLink;
  capture: {
    crop(
      tabId: number,
      rect: { x: number; y: number; width: number; height: number },
      viewport: {
        width: number;
        height: number;
        dpr: number;
      },
      windowId?: number,
    ): Promise<StoredCrop | null>;
    begin(tabId: number, width: number, height: number, left?: number): string;
    /** Rest-frame previews (capture/rest-frame.ts). */
    rest(
      tabId: number,
      windowId: number,
      viewport: { width: number; height: number; dpr: number },
    ): Promise<string | null>;
    preview(
      tabId: number,
      frame: string,
      rect: { x: number; y: number; width: number; height: number },
    ): Promise<string | null>;
    band(
      tabId: number,
      job: string,
      band: { srcY: number; height: number; destY: number },
      viewport: { width: number; height: number; dpr: number },
      windowId?: number,
      marker?: { y: number; code: number },
      step?: number,
    ): Promise<{ done: number; stale: boolean }>;
    settle(tabId: number, job: string): Promise<number[]>;
    /** The toolbar's turn in the capture queue (toolbar-turns.ts): ms it waited; 0 when released. */
    turn(tabId: number, windowId: number | undefined, hold: boolean): Promise<number>;
    end(tabId: number, job: string): Promise<StoredCrop | null>;
    abandon(tabId: number, job: string): void;
  };
  now?: () => Date;
}

export interface ToolbarSender {
  tabId: number;
  /** The tab's URL as the browser reports it (never taken from the message). */
  tabUrl: string;
  /** The tab's window, as the browser reports it: captures start without looking the tab up. */
  windowId?: number;
}

/** What every message handler gets: the worker's parts, who sent the message, and the event wire. */
export interface ToolbarContext extends ToolbarSender {
  deps: ToolbarDeps;
  now(): Date;
  /** Tells connected agents what the designer did (`wait_for_captures`); a no-op while the host is away. */
  emit(name: CaptureEventName, pageUrl: string, data: object): void;
}

export type ToolbarMessage<T extends ToolbarRequestType> = Extract<ToolbarRequest, { type: T }>;
export type ToolbarMessageHandler<T extends ToolbarRequestType> = (
  req: ToolbarMessage<T>,
  ctx: ToolbarContext,
) => Promise<unknown> | unknown;
