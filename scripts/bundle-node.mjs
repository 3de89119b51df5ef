// Bundles the Node entry points (see rolldown.config.mjs) quietly; errors still fail the build.
import { build } from 'rolldown';
import config from '../rolldown.config.mjs';

await build({ ...config, logLevel: 'warn' });
