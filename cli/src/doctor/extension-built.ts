import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '#shared/constants.js';
import type { CheckResult } from './types.js';

/** Chrome derives an extension's ID from its public key: sha256, first 32 hex digits mapped to a–p. */
export function extensionIdFromKey(key: string): string {
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}

/** dist/extension exists and its key pins the ID the host manifests allow. */
export function checkExtensionBuilt(dir: string): CheckResult {
  const title = 'extension built';
  const file = path.join(dir, 'manifest.json');
  const fix = 'Run `npm run build` in the x-ipe-uiux-reference package (it writes dist/extension).';
  let manifest: { key?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof manifest;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} ${missing ? 'is missing' : 'is not valid JSON'}`,
      fix,
    };
  }
  if (typeof manifest.key !== 'string') {
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} has no "key", so its ID is not pinned`,
      fix,
    };
  }
  const id = extensionIdFromKey(manifest.key);
  if (id !== EXTENSION_ID) {
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} has a key for ID ${id}, not the pinned ${EXTENSION_ID}; host manifests would not allow it`,
      fix,
    };
  }
  return {
    id: 'extension_built',
    title,
    status: 'ok',
    detail: `${dir} (version ${String(manifest.version)}, ID ${id})`,
  };
}
