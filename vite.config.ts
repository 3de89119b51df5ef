import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import { shipOnlyLoaded } from './scripts/ship-only-loaded.js';

// The extension is built from the repo-root manifest into dist/extension (loadable unpacked).
export default defineConfig({
  plugins: [crx({ manifest: manifest as ManifestV3Export }), shipOnlyLoaded(manifest)],
  build: {
    outDir: 'dist/extension',
    emptyOutDir: true,
    target: 'chrome120',
    minify: true,
    sourcemap: false,
  },
  // crxjs's dev server is not used; builds only.
  server: { port: 0 },
});
