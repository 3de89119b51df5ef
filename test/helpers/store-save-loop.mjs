#!/usr/bin/env node
// Child process for the idea-store concurrency tests: saves into one idea through the built store
// (dist/node), printing `saved <n>` per completed save on stdout.
// Usage: node store-save-loop.mjs <workspace> <idea> <count|forever> [png-file]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { saveReference } = await import(path.join(root, 'dist/node/shared/src/node/idea-store/index.js'));

const [workspace, idea, countArg, pngFile] = process.argv.slice(2);
if (workspace === undefined || idea === undefined || countArg === undefined) {
  process.stderr.write('usage: store-save-loop.mjs <workspace> <idea> <count|forever> [png-file]\n');
  process.exit(2);
}
const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number.parseInt(countArg, 10);
const png = pngFile ? `base64:${fs.readFileSync(pngFile).toString('base64')}` : null;

for (let i = 0; i < count; i++) {
  const data = {
    version: '1.0',
    source_url: `https://example.com/${process.pid}/${i}`,
    timestamp: new Date().toISOString(),
    idea_folder: idea,
    session_id: `pid-${process.pid}-${i}`,
    colors: [{ id: `color-${String((i % 900) + 1).padStart(3, '0')}`, hex: '#123456' }],
    elements: png
      ? [{ id: 'elem-001', selector: 'body', screenshots: { full_page: png, element_crop: png } }]
      : [{ id: 'elem-001', selector: 'body' }],
  };
  const result = await saveReference({ workspace, data, lockTimeoutMs: 60_000 });
  process.stdout.write(`saved ${result.session_number}\n`);
}
