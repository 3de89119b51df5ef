import { defineConfig } from 'rolldown';

// The Node entry points users run, bundled: one file per process (the CLI loads each lazily), so
// `x-ipe-uiux mcp` and `x-ipe-uiux host` start without resolving hundreds of modules. tsc still
// emits dist/node for type checking and for tests that import single modules.
export default defineConfig({
  input: { cli: 'cli/src/main.ts' },
  platform: 'node',
  // jsdom (the host's DOM for the SVG sanitizer) stays a runtime dependency, loaded on first use:
  // it reads files of its own next to its code, which a bundle would not carry.
  external: [/^node:/, 'jsdom'],
  // jsonc-parser's `main` is a UMD build whose requires a bundler cannot follow; its `module`
  // build is plain ESM.
  resolve: { mainFields: ['module', 'main'], conditionNames: ['x-ipe-source', 'import', 'node', 'default'] },
  output: {
    dir: 'dist/cli',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
    minify: false,
    // V8 keeps each chunk's source text in the heap, as two bytes per character once a single
    // non-ASCII character (a comment's dash) appears: ASCII output without doc comments takes
    // ~1.3 MB off every MCP server. Stack traces map back through the source maps.
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
});
