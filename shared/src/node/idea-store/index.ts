// Public API of the idea store; the host handlers and tests use only this.
export { listIdeas } from './ideas.js';
export { DEFAULT_LOCK_TIMEOUT_MS } from './lock.js';
export {
  ideaPaths,
  isWithin,
  MERGED_FILE,
  REFERENCES_DIR,
  SCREENSHOTS_DIR,
  SESSIONS_DIR,
} from './path-safety.js';
export { decodeStrictBase64, pngProblem, type StagedImageSource } from './screenshots.js';
export {
  checkPayloadSize,
  payloadTooLarge,
  type SaveReferenceOptions,
  type StoreLogger,
  saveReference,
} from './store.js';
export { resolveWorkspace, type WorkspaceRequest, workspacesToList } from './workspaces.js';
