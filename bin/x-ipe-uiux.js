#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/node by `npm run build` (run by `npm install`).
import { main } from '../dist/node/cli/src/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`x-ipe-uiux: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
