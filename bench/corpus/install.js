// Installs the real-web corpus (bench/corpus/packages.json) into .cache/real-corpus/: each
// package is fetched with `npm pack` from the registry and unpacked into a folder named after it,
// once (a `.complete` marker makes a half-unpacked folder count as missing). Run by the bench and
// by the e2e test before they serve a page, and by hand: `node bench/corpus/install.js`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS = JSON.parse(fs.readFileSync(path.join(HERE, 'packages.json'), 'utf8'));
export const CACHE_DIR = process.env.XIPE_CORPUS_DIR ?? path.join(HERE, '..', '..', '.cache', 'real-corpus');

/** The folder a package spec ("name@version") is unpacked into. */
export const packageDir = (spec) => path.join(CACHE_DIR, spec.replaceAll('/', '__'));

/** Every package spec the corpus needs: the pages' and the CDN copies'. */
export const allSpecs = () => [...Object.keys(CORPUS.pages), ...Object.values(CORPUS.cdn)];

/**
 * Makes sure each spec in `specs` is unpacked; returns CACHE_DIR. Throws with npm's own message and
 * what to do when a package cannot be fetched.
 */
export function ensureCorpus(specs = allSpecs()) {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (const spec of specs) {
    const dir = packageDir(spec);
    if (fs.existsSync(path.join(dir, '.complete'))) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    const scratch = fs.mkdtempSync(path.join(CACHE_DIR, '.pack-'));
    try {
      let out;
      try {
        out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', scratch], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (err) {
        throw new Error(
          `npm pack ${spec} failed (${String(err.stderr ?? err.message)
            .trim()
            .slice(
              0,
              300,
            )}): the real-web corpus needs the npm registry; check the network or npm config, or set XIPE_CORPUS_DIR to a folder already holding it`,
        );
      }
      const [{ filename }] = JSON.parse(out);
      fs.mkdirSync(dir, { recursive: true });
      execFileSync('tar', [
        'xzf',
        path.join(scratch, path.basename(filename)),
        '-C',
        dir,
        '--strip-components=1',
      ]);
      fs.writeFileSync(path.join(dir, '.complete'), `${spec}\n`);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return CACHE_DIR;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = ensureCorpus();
  process.stderr.write(`real-web corpus ready in ${dir} (${allSpecs().length} packages)\n`);
}
