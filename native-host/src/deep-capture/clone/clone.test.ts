import { describe, expect, it } from 'vitest';
import { AreaCapture, type CaptureNode } from '#shared/deep-capture/area-capture.js';
import { readableColor } from '#shared/deep-capture/readable-color.js';
import type { SvgSanitizer } from '#shared/deep-capture/svg-sanitize.js';
import { loadSvgSanitizer } from '#shared/node/svg-sanitizer.js';
import { testCapture, testNode } from '#test/helpers/captures.js';
import { safeDeclaration } from './css.js';
import { compactShorthands } from './declarations.js';
import { buildClone } from './index.js';
import { classHint, nodeClassNames } from './names.js';

const node = (partial: Partial<CaptureNode> & Pick<CaptureNode, 'tag'>) =>
  testNode(partial, { x: 0, y: 0, width: 100, height: 20 });
const capture = testCapture;

const files: Record<string, string> = {
  'https://site.test/hero.png': 'a1b2.png',
  'https://site.test/f.woff2': 'c3d4.woff2',
};
const svg: SvgSanitizer = await loadSvgSanitizer();
const clone = (c: AreaCapture) =>
  buildClone(c, {
    areaId: 'area-2',
    resourcePath: (u) => files[u] ?? null,
    pixelPath: (i) => `px-${i}.png`,
    svg,
  });

describe('nodeClassNames', () => {
  it('names elements by role, then telling tag, then the page class, numbered per word', () => {
    const names = nodeClassNames([
      node({ tag: 'div', classes: ['pricing-card'] }),
      node({ tag: 'a', classes: ['btn'] }),
      node({ tag: 'a' }),
      node({ tag: 'div', role: 'navigation' }),
      node({ tag: 'div', classes: ['flex', 'mt-4'] }),
      node({ tag: 'section', classes: ['Card_root__x7Fq2'] }),
      node({ tag: 'my-widget' }),
      node({ tag: 'div', kind: 'gap' }),
      node({ tag: 'div', classes: ['area'] }),
    ]);
    expect(names).toEqual([
      'pricing-card-1',
      'link-1',
      'link-2',
      'nav-1',
      'box-1',
      'section-1',
      'my-widget-1',
      'gap-1',
      'area-el-1',
    ]);
  });

  it('turns camelCase and BEM classes into readable words', () => {
    expect(classHint(['heroBanner'])).toBe('hero-banner');
    expect(classHint(['card__title--big'])).toBe('card-title-big');
    expect(classHint(['sc-a1b2c3', 'x'])).toBeNull();
  });
});

describe('declarations', () => {
  it('writes opaque colours as hex and keeps alpha as rgba', () => {
    expect(readableColor('rgb(37, 99, 235)')).toBe('#2563eb');
    expect(readableColor('rgba(0, 0, 0, 0.5)')).toBe('rgba(0, 0, 0, 0.5)');
  });

  it('compacts complete longhand sets only', () => {
    expect(
      compactShorthands({
        'margin-top': '1px',
        'margin-right': '2px',
        'margin-bottom': '1px',
        'margin-left': '2px',
        'padding-top': '4px',
        'border-top-width': '1px',
        'border-right-width': '1px',
        'border-bottom-width': '1px',
        'border-left-width': '1px',
        'border-top-style': 'solid',
        'border-right-style': 'solid',
        'border-bottom-style': 'solid',
        'border-left-style': 'solid',
        'border-top-color': 'var(--c)',
        'border-right-color': 'var(--c)',
        'border-bottom-color': 'var(--c)',
        'border-left-color': 'var(--c)',
        'overflow-x': 'hidden',
        'overflow-y': 'hidden',
      }),
    ).toEqual({ margin: '1px 2px', 'padding-top': '4px', border: '1px solid var(--c)', overflow: 'hidden' });
  });

  it('refuses declarations that could leave their rule or reach the network', () => {
    expect(safeDeclaration('color', 'rgb(1, 2, 3)')).toBe(true);
    expect(safeDeclaration('content', '"a;b{c}"')).toBe(true);
    expect(safeDeclaration('color', 'red} body{background:red')).toBe(false);
    expect(safeDeclaration('color', 'red; x: y')).toBe(false);
    expect(safeDeclaration('background-image', 'image-set("https://evil.test/a.png" 1x)')).toBe(false);
    expect(safeDeclaration('background-image', 'url("//evil.test/a.png")')).toBe(false);
    expect(safeDeclaration('background-image', 'url(")')).toBe(false);
    expect(safeDeclaration('x}{', 'red')).toBe(false);
    // Judged as the CSS parser reads it: escapes decoded, case folded.
    expect(safeDeclaration('background-image', 'URL(ht\\74p:\\2f\\2f evil.test/a.png)')).toBe(false);
    expect(safeDeclaration('background-image', "u\\72l('//evil.test/a.png')")).toBe(false);
    expect(safeDeclaration('background-image', 'image-set("a.png" 1x)')).toBe(false);
    expect(safeDeclaration('background-image', 'url("3fa2c4d1e0b9a8f7c6d5.png")')).toBe(true);
    expect(safeDeclaration('fill', 'url("#gradient")')).toBe(true);
    expect(safeDeclaration('background-image', 'url("")')).toBe(true);
  });
});

describe('buildClone', () => {
  const nodes = [
    node({
      tag: 'section',
      classes: ['hero'],
      rect: { x: -10, y: 20, width: 420, height: 300 },
      children: [1, 2, 4, 5, 6],
      styles: {
        display: 'block',
        position: 'sticky',
        'margin-top': '8px',
        color: 'rgb(17, 24, 39)',
        'background-image': 'url("https://site.test/hero.png"), url("https://gone.test/x.png")',
        'font-family': '"Brand Sans", sans-serif',
      },
    }),
    node({
      tag: 'h1',
      parent: 0,
      children: [{ text: 'Hello <world> & "you"' }],
      styles: { color: 'rgb(37, 99, 235)' },
    }),
    node({ tag: 'p', parent: 0, children: [3], styles: { display: 'block' } }),
    node({ tag: 'div', parent: 2, styles: { display: 'block' }, children: [{ text: 'inside' }] }),
    node({ tag: 'div', kind: 'gap', parent: 0, styles: { display: 'block', height: '40px' } }),
    node({
      tag: 'canvas',
      kind: 'pixels',
      parent: 0,
      pixels: { data_url: null, from_crop: true, reason: 'tainted', scale: 2 },
      rect: { x: 5.5, y: 7.25, width: 50, height: 30 },
      styles: { 'border-top-width': '1px', 'border-top-style': 'solid' },
    }),
    node({
      tag: 'svg',
      kind: 'svg',
      parent: 0,
      svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><script>y()</script><path d="M0 0"/></svg>',
    }),
  ];
  nodes[1] = {
    ...(nodes[1] as CaptureNode),
    states: [{ state: 'hover', target: 0, pseudo: null, styles: { color: 'red' } }],
  };
  const result = clone(
    capture(nodes, {
      custom_properties: { '--brand': '#2563eb' },
      fonts: [
        {
          family: 'Brand Sans',
          weight: '400',
          style: 'normal',
          stretch: '100%',
          unicode_range: 'U+0-10FFFF',
          src: 'https://site.test/f.woff2',
          format: 'woff2',
        },
        {
          family: 'Lost',
          weight: '400',
          style: 'normal',
          stretch: '100%',
          unicode_range: 'U+0-10FFFF',
          src: 'https://site.test/lost.woff2',
          format: null,
        },
      ],
      backdrop: [
        {
          tag: 'body',
          rect: { x: 0, y: 0, width: 400, height: 200 },
          styles: { 'background-color': 'rgb(0, 0, 0)' },
        },
      ],
    }),
  );

  it('names the two files after the area', () => {
    expect([result.htmlFile, result.cssFile]).toEqual(['area-2-structure.html', 'area-2-styles.css']);
    expect(result.html).toContain('<link rel="stylesheet" href="area-2-styles.css">');
  });

  it('writes escaped text, the state rule, and parser-safe tags', () => {
    expect(result.html).toContain('Hello &lt;world&gt; &amp; "you"');
    expect(result.css).toContain('.hero-1:hover .heading-1 {\n  color: red;\n}');
    // A <p> holding a <div> would be split by the parser: it becomes a div.
    expect(result.html).toMatch(/<div class="text-1">\s*<div class="box-1">inside<\/div>\s*<\/div>/);
  });

  it('places the root where it was, without its own offsets or margins', () => {
    const rule = /\.hero-1 \{([^}]*)\}/.exec(result.css)?.[1] ?? '';
    expect(rule).toContain('position: absolute;');
    expect(rule).toContain('left: -10px;');
    expect(rule).toContain('top: 20px;');
    expect(rule).toContain('margin: 0;');
    expect(rule).not.toContain('sticky');
  });

  it('keeps the root at its size when it is wider than the area (percentage limits would clamp it)', () => {
    // A centred card with `max-width: 100%`, 900 px wide, of which the area shows 500 px: in the
    // clone its percentages would resolve against the area, 500 px, and reflow what it holds.
    const card = node({
      tag: 'div',
      classes: ['card'],
      rect: { x: -110, y: -10, width: 900, height: 188 },
      styles: {
        display: 'block',
        'box-sizing': 'border-box',
        width: '900px',
        height: '188px',
        'max-width': '100%',
        'min-width': 'calc(50% + 10px)',
        'max-height': '80%',
        'text-align': 'center',
      },
    });
    const css = clone(capture([card], { rect: { x: 300, y: 50, width: 500, height: 150 } })).css;
    const rule = /\.card-1 \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toContain('width: 900px;');
    expect(rule).toContain('height: 188px;');
    expect(rule).not.toMatch(/(min|max)-(width|height)/);
    // Not the root: its percentages resolve against its clone parent, as in the page.
    const child = node({ tag: 'p', parent: 0, styles: { display: 'block', 'max-width': '100%' } });
    const both = clone(capture([{ ...card, children: [1] }, child])).css;
    expect(both).toMatch(/\.text-1 \{[^}]*max-width: 100%;/);
  });

  it('points url()s at local files, empties missing ones and declares only local fonts', () => {
    expect(result.css).toContain('background-image: url("a1b2.png"), url("");');
    expect(result.css).toContain('src: url("c3d4.woff2") format("woff2");');
    expect(result.css).not.toContain('lost.woff2');
    expect(result.css).not.toMatch(/https?:\/\/site\.test\/(hero|f)/);
  });

  it('turns colours and font stacks into custom properties, named after the page’s own', () => {
    expect(result.css).toContain('--brand: #2563eb;');
    expect(result.css).toContain('color: var(--brand);');
    expect(result.css).toMatch(/--font-brand-sans: "Brand Sans", sans-serif;/);
  });

  it('hides gaps, draws backdrops under the root and cut images unscaled at their sub-pixel offset', () => {
    expect(/\.gap-1 \{([^}]*)\}/.exec(result.css)?.[1]).toContain('visibility: hidden;');
    expect(result.html).toContain('<div class="backdrop-1"></div>');
    const canvas = /\.canvas-1 \{([^}]*)\}/.exec(result.css)?.[1] ?? '';
    expect(canvas).toContain('object-fit: none;');
    expect(canvas).toContain('object-position: -0.5px -0.25px;');
    expect(canvas).not.toContain('border-top');
    expect(result.html).toContain('<img class="canvas-1" src="px-5.png" srcset="px-5.png 2x" alt="">');
  });

  it('writes sanitized SVG with its class and never a script or handler', () => {
    expect(result.html).toContain(
      '<svg class="icon-1" xmlns="http://www.w3.org/2000/svg"><path d="M0 0"></path></svg>',
    );
    expect(result.html).not.toMatch(/<script>(?!.*Content-Security)|onload|y\(\)/);
    expect(result.html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file:; style-src 'self' file:; font-src 'self' file:; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'">`,
    );
  });

  it('never writes handler attributes or values of text inputs', () => {
    const form = clone(
      capture([
        node({ tag: 'div', children: [1, 2, 3], styles: { display: 'block' } }),
        node({
          tag: 'input',
          parent: 0,
          attrs: { type: 'text', placeholder: 'Email', onclick: 'x()', value: 'typed' },
        }),
        node({ tag: 'input', parent: 0, attrs: { type: 'submit', value: 'Send' } }),
        node({ tag: 'textarea', parent: 0, children: [{ text: 'typed text' }] }),
      ]),
    );
    expect(form.html).toContain('<input class="input-1" type="text" placeholder="Email">');
    expect(form.html).toContain('<input class="input-2" type="submit" value="Send">');
    expect(form.html).toContain('<textarea class="textarea-1"></textarea>');
    expect(form.html).not.toMatch(/onclick|typed/);
  });

  it('opens a scrolled container where it was scrolled, without a script', () => {
    const scrolled = clone(
      capture([
        node({ tag: 'div', classes: ['rail'], scroll: { x: 200, y: 0 }, styles: { display: 'flex' } }),
      ]),
    );
    expect(scrolled.html).toContain('<span class="rail-1-scrolled" aria-hidden="true"></span>');
    expect(scrolled.css).toContain('scroll-initial-target: nearest;');
  });
});

describe('boxes whose content did not load', () => {
  it('draws an image button whose picture is missing as an image with its text, not as a Submit button', () => {
    const html = (src: string) =>
      clone(
        capture([
          node({ tag: 'div', children: [1] }),
          node({
            tag: 'input',
            parent: 0,
            attrs: { type: 'image', alt: 'Share' },
            image_src: src,
            styles: { display: 'inline-block', width: '96px', height: '40px' },
          }),
        ]),
      ).html;
    // Missing: the page shows the alt text in the button's box; an input without a picture
    // would show the browser's "Submit" label.
    expect(html('https://site.test/gone.png')).toMatch(/<img class="input-1" alt="Share">/);
    expect(html('https://site.test/gone.png')).not.toContain('<input');
    // Present: the input keeps its picture.
    expect(html('https://site.test/hero.png')).toMatch(
      /<input class="input-1" src="a1b2.png" type="image" alt="Share">/,
    );
  });
});

describe('the page background and the ancestors under the root', () => {
  it('draws their images from the local files, clipped where the capture says', () => {
    const { css } = clone(
      capture([node({ tag: 'div' })], {
        backdrop: [
          {
            tag: 'canvas',
            rect: { x: -10, y: -500, width: 1280, height: 2000 },
            styles: {
              'background-image': 'url("https://site.test/hero.png")',
              'background-repeat': 'repeat',
            },
          },
          {
            tag: 'header',
            rect: { x: -10, y: 0, width: 1280, height: 720 },
            styles: {
              'background-image': 'url("https://site.test/hero.png")',
              'clip-path': 'inset(0px 0px 200px 0px)',
            },
          },
        ],
      }),
    );
    expect(css).toContain('.backdrop-1 {');
    expect(css.match(/url\("a1b2\.png"\)/g)?.length).toBe(2);
    expect(css).toContain('clip-path: inset(0px 0px 200px 0px)');
    expect(css).not.toMatch(/url\("https:/);
  });
});

describe('the page’s document mode', () => {
  const first = (c: AreaCapture) => clone(c).html.split('\n')[0];
  it('writes no doctype for a quirks-mode page without one, so the clone lays out in quirks mode', () => {
    expect(
      first(capture([node({ tag: 'div' })], { document_mode: { compat_mode: 'BackCompat', doctype: null } })),
    ).toBe('<html>');
  });
  it('copies an old doctype as the page wrote it', () => {
    const doctype = '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">';
    expect(
      first(capture([node({ tag: 'div' })], { document_mode: { compat_mode: 'BackCompat', doctype } })),
    ).toBe(doctype);
  });
  it('never copies a doctype that could carry markup, and keeps the mode', () => {
    const doctype = '<!DOCTYPE html PUBLIC "x"><script>alert(1)</script>">';
    const html = clone(
      capture([node({ tag: 'div' })], { document_mode: { compat_mode: 'BackCompat', doctype } }),
    ).html;
    expect(html.split('\n')[0]).toBe('<html>');
    expect(html).not.toContain('alert');
  });
  it('reads a capture staged before the mode was recorded as a standards page', () => {
    const { document_mode: _, ...old } = capture([node({ tag: 'div' })]);
    const parsed = AreaCapture.parse(old);
    expect(parsed.document_mode).toBeNull();
    expect(first(parsed)).toBe('<!doctype html>');
  });
});

describe('inline SVG', () => {
  it('sanitizes each distinct markup once however many icons repeat it, each keeping its own class', () => {
    const icon = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>';
    const other = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="2"/></svg>';
    const icons = Array.from({ length: 30 }, (_, i) =>
      node({ tag: 'svg', kind: 'svg', parent: 0, svg: i % 10 === 9 ? other : icon }),
    );
    const seen: string[] = [];
    const counting: SvgSanitizer = {
      sanitize: (markup, options) => {
        seen.push(markup);
        return svg.sanitize(markup, options);
      },
    };
    const root = node({ tag: 'div', children: icons.map((_, i) => i + 1) });
    const { html } = buildClone(capture([root, ...icons]), {
      areaId: 'area-2',
      resourcePath: () => null,
      pixelPath: () => null,
      svg: counting,
    });
    expect(seen.sort()).toEqual([other, icon].sort());
    expect(html.match(/<svg class="icon-\d+" xmlns="http:\/\/www.w3.org\/2000\/svg"><path/g)).toHaveLength(
      27,
    );
    expect(html).toContain(
      '<svg class="icon-30" xmlns="http://www.w3.org/2000/svg"><circle r="2"></circle></svg>',
    );
  });

  it('writes an empty SVG for a refused markup every time it repeats', () => {
    const bad = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"'; // not well-formed
    const icons = [1, 2].map(() => node({ tag: 'svg', kind: 'svg', parent: 0, svg: bad }));
    const root = node({ tag: 'div', children: [1, 2] });
    const { html } = clone(capture([root, ...icons]));
    expect(html).toContain('<svg class="icon-1"></svg>');
    expect(html).toContain('<svg class="icon-2"></svg>');
  });
});
