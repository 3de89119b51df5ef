// Browser-safe part of the shared contract: the extension may import only this entry point.
export * from './capture-events.js';
export * from './chunking.js';
export * from './commands/index.js';
export * from './constants.js';
export * from './envelopes.js';
export * from './errors.js';
export * from './reference-data.js';
export * from './request-table.js';
export * from './validation-issues.js';
export * from './with-timeout.js';
