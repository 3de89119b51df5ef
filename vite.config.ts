import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import { shipOnlyLoaded } from './scripts/ship-only-loaded.js';

// @crxjs/vite-plugin 3.0.0 builds each `?iife` content script in an inner build that sets
// `inlineDynamicImports` where vite 8 already sets `codeSplitting: false`, and rolldown's option
// checker warns on every build about an option that changes nothing. That checker is the only
// user of rolldown's console logger (real build warnings reach vite's logger), and the inner build
// takes no logger of ours: quiet it to errors for this build only.
process.env.CONSOLA_LEVEL ??= '0';

// The extension is built from the repo-root manifest into dist/extension (loadable unpacked).
export default defineConfig({
  plugins: [crx({ manifest: manifest as ManifestV3Export }), shipOnlyLoaded(manifest)],
  // `#shared/*` (package.json imports) resolves to the TypeScript sources.
  resolve: { conditions: ['x-ipe-source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist/extension',
    emptyOutDir: true,
    target: 'chrome120',
    minify: true,
    sourcemap: false,
    // A report of how long plugins took, printed when the machine is busy: not a warning about the build.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  // crxjs's dev server is not used; builds only.
  server: { port: 0 },
});
