#!/usr/bin/env node
// `npm run package`: zips dist/extension for the Chrome Web Store (no zip binary needed).
// The logic lives in cli/src/package-extension.ts (unit-tested); this only runs the built copy.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  const { packageExtension } = await import('../dist/node/cli/src/package-extension.js');
  const { file, entries, bytes } = packageExtension(root);
  process.stdout.write(
    `wrote ${path.relative(root, file)} (${entries} files, ${bytes} bytes; manifest "key" removed for the Web Store)\n`,
  );
} catch (err) {
  process.stderr.write(`package: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
