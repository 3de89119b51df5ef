// Bundles the Node entry points (see rolldown.config.mjs) quietly; errors still fail the build.
import fs from 'node:fs';
import { build } from 'rolldown';
import config from '../rolldown.config.mjs';

// Chunk names carry a hash: clear the folder so chunks of earlier builds do not pile up.
fs.rmSync(config.output.dir, { recursive: true, force: true });

await build({ ...config, logLevel: 'warn' });
