import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from './errors.js';

const architecture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'architecture.md',
);

describe('error codes', () => {
  it('are the ones docs/architecture.md explains, no more, no fewer', () => {
    const section = fs.readFileSync(architecture, 'utf8').split('## Error codes')[1]?.split('\n## ')[0] ?? '';
    const documented = [...section.matchAll(/^\| `([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(documented).toEqual(ErrorCode.options);
  });
});
