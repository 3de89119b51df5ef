import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '#shared/node/logger.js';
import { ideasDir, listWorkspaceIdeas } from './workspace-ideas.js';

/** What a server subscribes to: "the resource list may look different now". */
export interface ResourceChanges {
  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface IdeasWatcher extends ResourceChanges {
  /** Resolves once the first look is done and the folders are watched. */
  readonly ready: Promise<void>;
  close(): void;
}

export interface IdeasWatcherOptions {
  workspace: string;
  logger: Logger;
  /** Bursts of file events (a save writes several files) become one check. */
  debounceMs?: number;
  /** Above this many idea folders only the ideas folder itself is watched. */
  maxWatchedIdeas?: number;
}

/**
 * Watches `x-ipe-docs/ideas/` (non-recursively: recursive fs.watch is not reliable on every
 * platform Node 20 runs on) plus each idea folder and its `uiux-references/`, so an idea folder
 * added or removed, or an idea's first `reference-data.json`, changes the resource list. While the
 * ideas folder does not exist, the nearest existing parent is watched for it to appear. Listeners
 * are told only when the list (idea names, which ones have reference data) really changed.
 */
export function watchIdeas(options: IdeasWatcherOptions): IdeasWatcher {
  const { workspace, logger } = options;
  const debounceMs = options.debounceMs ?? 200;
  const maxIdeas = options.maxWatchedIdeas ?? 200;
  const root = ideasDir(workspace);
  const listeners = new Set<() => void>();
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let signature: string | null = null;
  let warned = false;

  const schedule = (): void => {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void refresh();
    }, debounceMs);
    timer.unref();
  };

  const watch = (dir: string): void => {
    if (watchers.has(dir)) return;
    try {
      const watcher = fs.watch(dir, { persistent: false }, schedule);
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(dir);
        schedule();
      });
      watchers.set(dir, watcher);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && !warned) {
        warned = true; // e.g. ENOSPC: the inotify watch limit is reached
        logger.warn('cannot watch the ideas folder; resource list changes will not be notified', {
          dir,
          error: (err as Error).message,
        });
      }
    }
  };

  /** Which folders to watch now; the ideas folder's listing is what the resource list shows. */
  const look = async (): Promise<{ dirs: string[]; signature: string }> => {
    const ideas = await listWorkspaceIdeas(workspace);
    const next = JSON.stringify(ideas.map((i) => [i.name, i.has_reference_data, i.has_referenced_elements]));
    if (!fs.existsSync(root)) {
      const parents = [path.dirname(root), path.resolve(workspace)];
      const existing = parents.find((p) => fs.existsSync(p));
      return { dirs: existing !== undefined ? [existing] : [], signature: next };
    }
    const dirs = [root];
    if (ideas.length <= maxIdeas) {
      for (const idea of ideas) {
        const ideaDir = path.join(root, idea.name);
        dirs.push(ideaDir);
        const refs = path.join(ideaDir, 'uiux-references');
        if (fs.existsSync(refs)) dirs.push(refs);
      }
    }
    return { dirs, signature: next };
  };

  const sync = async (): Promise<void> => {
    const seen = await look();
    if (closed) return;
    const dirs = new Set(seen.dirs);
    for (const [dir, watcher] of watchers) {
      if (!dirs.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of dirs) watch(dir);
    const changed = signature !== null && signature !== seen.signature;
    signature = seen.signature;
    if (changed) {
      for (const listener of listeners) {
        try {
          listener();
        } catch (err) {
          logger.warn('resource change listener failed', { error: (err as Error).message });
        }
      }
    }
  };

  const refresh = async (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await sync();
        } catch (err) {
          logger.warn('ideas watcher refresh failed', { error: (err as Error).message });
        }
      } while (again && !closed);
    })();
    try {
      await running;
    } finally {
      running = null;
    }
  };

  const ready = refresh();
  return {
    ready,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      listeners.clear();
    },
  };
}
