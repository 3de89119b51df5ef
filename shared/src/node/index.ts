// Node-only part of the shared contract (paths, token, framing). Never imported by the extension.

export * from './bridge/discovery.js';
export * from './bridge/host-connection.js';
export * from './bridge/probe.js';
export * from './config.js';
export * from './endpoint-descriptor.js';
export * from './framing.js';
export * from './logger.js';
export * from './paths.js';
export * from './token.js';
export * from './version.js';
