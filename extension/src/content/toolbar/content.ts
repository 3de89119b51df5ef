import { ToolbarApp } from './app.js';
import { HOST_TAG } from './dom-inspect.js';
import { OVERLAY_TAG } from './verify/reference-overlay.js';

/**
 * Entry of the toolbar bundle, injected with chrome.scripting.executeScript({files}) into the
 * isolated world. The marker lives on the isolated world's globalThis, which page scripts cannot
 * see; the worker's probe (background/toolbar/open.ts) talks to it so injecting twice never gives
 * two toolbars.
 */
interface Marker {
  open(): void;
  /** A line from the worker for the status (a capture waiting its turn). */
  notice(text: string | null): void;
  toggle(): boolean;
  destroy(): void;
}

const g = globalThis as { __xipeUiuxToolbar?: Marker };

function start(): void {
  if (g.__xipeUiuxToolbar) {
    g.__xipeUiuxToolbar.open();
    return;
  }
  for (const stale of Array.from(document.querySelectorAll(`${HOST_TAG}, ${OVERLAY_TAG}`))) stale.remove();
  const app = new ToolbarApp();
  const marker: Marker = {
    open: () => app.open(),
    notice: (text) => app.notice(text),
    // The action button toggles: an open toolbar closes (its data stays in the worker).
    toggle: () => {
      app.destroy();
      return false;
    },
    destroy: () => app.destroy(),
  };
  app.onDestroy = () => {
    if (g.__xipeUiuxToolbar === marker) delete g.__xipeUiuxToolbar;
  };
  g.__xipeUiuxToolbar = marker;
}

start();
