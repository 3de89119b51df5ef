import type { Plugin } from 'vite';

/**
 * Build step after crxjs: the package holds only what the browser loads, and exposes nothing.
 *
 * - crxjs builds a script imported with `?iife` twice: the self-contained file the worker injects
 *   (`executeScript({files})`) and an ES chunk of the same code that nothing loads (44 KB). Every
 *   chunk not reachable from what the manifest starts (service worker, content scripts) is dropped.
 * - crxjs also lists that injected file under `web_accessible_resources` for every http(s) page,
 *   with a static URL: with the pinned ID any site could fetch it and learn the extension is
 *   installed. `executeScript({files})` needs no such entry, so the generated ones are removed;
 *   an entry written in manifest.json on purpose is kept, with `use_dynamic_url` forced on.
 */
export function shipOnlyLoaded(sourceManifest: Readonly<Record<string, unknown>>): Plugin {
  const declared = Array.isArray(sourceManifest.web_accessible_resources)
    ? sourceManifest.web_accessible_resources
    : [];
  return {
    name: 'x-ipe:ship-only-loaded',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const manifestAsset = bundle['manifest.json'];
        if (manifestAsset?.type !== 'asset')
          throw new Error('ship-only-loaded: no manifest.json in the bundle');
        const manifest = JSON.parse(String(manifestAsset.source)) as {
          background?: { service_worker?: string };
          content_scripts?: Array<{ js?: string[] }>;
          web_accessible_resources?: Array<{ use_dynamic_url?: boolean }>;
        };

        if (declared.length === 0) delete manifest.web_accessible_resources;
        else {
          manifest.web_accessible_resources = declared.map((entry) => ({
            ...(entry as object),
            use_dynamic_url: true,
          }));
        }
        manifestAsset.source = `${JSON.stringify(manifest, null, 2)}\n`;

        // What the browser starts; a JS asset (crxjs's service-worker loader) names its chunks in its source.
        const roots = [
          manifest.background?.service_worker,
          ...(manifest.content_scripts ?? []).flatMap((c) => c.js ?? []),
        ];
        const reachable = new Set<string>();
        const visit = (file: string | undefined): void => {
          if (file === undefined || reachable.has(file)) return;
          reachable.add(file);
          const item = bundle[file];
          if (item?.type === 'chunk') {
            for (const next of [...item.imports, ...item.dynamicImports]) visit(next);
          } else if (item?.type === 'asset' && file.endsWith('.js')) {
            for (const name of Object.keys(bundle)) if (String(item.source).includes(name)) visit(name);
          }
        };
        for (const root of roots) visit(root);
        for (const [file, item] of Object.entries(bundle)) {
          if (item.type === 'chunk' && !reachable.has(file)) delete bundle[file];
        }
      },
    },
  };
}
