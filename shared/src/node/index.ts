// Node-only part of the shared contract (paths, token, framing). Never imported by the extension.
export * from './framing.js';
export * from './paths.js';
export * from './token.js';
