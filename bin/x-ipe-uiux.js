#!/usr/bin/env node
// Thin launcher: `npm run build` (run by `npm install`) bundles the CLI into dist/cli, one chunk per
// process so each command loads only what it needs.
import { main } from '../dist/cli/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`x-ipe-uiux: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
