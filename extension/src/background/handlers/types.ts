import type { z } from 'zod';
import type {
  BrowserInfo,
  CaptureAreaResult,
  COMMANDS,
  CommandName,
  CommandResult,
  FetchResourceResult,
} from '#shared/index.js';

/** The toolbar's deep captures staged in the worker (deep-capture/staged.ts), by item key. */
export interface StagedSource {
  /** Null when nothing is staged under `key` (removed, or saved and cleared). */
  area(key: string): Promise<CaptureAreaResult | null>;
  /** Null when that file was not staged (it is then fetched live). */
  resource(key: string, url: string): Promise<FetchResourceResult | null>;
}

/** What a request that waits its turn tells its asker (a `progress` envelope under the request's id). */
export interface RequestProgress {
  state: 'queued' | 'started';
  message: string;
  queued_ms: number;
}

/** What belongs to one request: the asker's cancel, and where to say it is waiting. */
export interface RequestScope {
  /** Aborted when the asker sends `cancel` for this request (or the link goes away). */
  signal?: AbortSignal;
  progress?: (progress: RequestProgress) => void;
}

/** The narrow context every handler gets (never module globals). */
export interface HandlerContext extends RequestScope {
  browserInfo(): Promise<BrowserInfo>;
  staged: StagedSource;
}

/** Bridge commands the extension answers (handledBy: 'extension' in COMMANDS). */
export type ExtensionCommand = {
  [K in CommandName]: (typeof COMMANDS)[K]['handledBy'] extends 'extension' ? K : never;
}[CommandName];

export type Handler<C extends CommandName> = (
  params: z.infer<(typeof COMMANDS)[C]['params']>,
  ctx: HandlerContext,
) => Promise<CommandResult<C>>;
