/**
 * For happy-dom unit tests of the toolbar's logic only: happy-dom has no `Event.isTrusted`, so
 * every event would read as one the page made up, which the toolbar ignores (trusted.ts). Here
 * every event counts as the user's. That events the page dispatches are ignored is tested in
 * real Chromium with real input (test/e2e/hostile-input.test.ts).
 */
Object.defineProperty(Event.prototype, 'isTrusted', { configurable: true, get: () => true });
