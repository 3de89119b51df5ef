import { beforeAll, describe, expect, it } from 'vitest';
import { loadSvgSanitizer } from '../node/svg-sanitizer.js';
import { createSvgSanitizer, SvgRejectedError, type SvgSanitizer } from './svg-sanitize.js';

let svg: SvgSanitizer;
beforeAll(async () => {
  svg = await loadSvgSanitizer();
});

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('the SVG sanitizer', () => {
  it('refuses to work without a DOM rather than pass anything through', () => {
    expect(() => createSvgSanitizer(undefined)).toThrow(SvgRejectedError);
    expect(() => createSvgSanitizer({} as never)).toThrow(/no DOM/);
  });

  it('keeps a plain icon, in one canonical form', () => {
    const out = svg.sanitize(
      `<?xml version="1.0"?><!-- c --><svg ${NS} viewBox="0 0 24 24" width="24"><path d="M0 0L24 24" fill="none" stroke="currentColor"/><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient><rect fill="url(#g)" width="4" height="4"/><text>a &lt; b<![CDATA[ & c ]]></text></svg>`,
    );
    expect(out).toBe(
      `<svg ${NS} viewBox="0 0 24 24" width="24"><path d="M0 0L24 24" fill="none" stroke="currentColor"></path><linearGradient id="g"><stop offset="0" stop-color="red"></stop></linearGradient><rect fill="url(#g)" width="4" height="4"></rect><text>a &lt; b &amp; c </text></svg>`,
    );
    expect(svg.sanitize(out)).toBe(out);
  });

  it('drops what runs, loads or breaks out: the payloads of issue 27', () => {
    const out = svg.sanitize(
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><script>alert(1)</script><style>@import url(http://e.test/a);</style>` +
        `<image href="http://e.test/i.png"/><image xlink:href="//e.test/j.png"/><a href="javascript:alert(1)"><rect onclick="x()" width="1"/></a>` +
        `<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject><img srcset="http://e.test/s 1x"/>` +
        `<meta http-equiv="refresh" content="0;url=http://e.test/m"/><animate attributeName="href" to="javascript:alert(1)"/>` +
        `<rect style="fill: URL(ht\\74p:\\2f\\2f e.test/f); stroke: red" width="2"/><use href="http://e.test/s.svg#x"/><use href="#ok"/></svg>`,
    );
    expect(out).toBe(
      `<svg ${NS}><image></image><image></image><rect width="1"></rect><rect width="2" stroke="red"></rect><use></use><use href="#ok"></use></svg>`,
    );
  });

  it('turns a style attribute into presentation attributes (the clone allows no inline styles)', () => {
    expect(
      svg.sanitize(
        `<svg ${NS}><path d="M0 0" style="fill: rgb(1, 2, 3); stroke-width: 2px !important; position: fixed; fill-opacity: 0.5"/></svg>`,
      ),
    ).toBe(
      `<svg ${NS}><path d="M0 0" fill="rgb(1, 2, 3)" stroke-width="2px" fill-opacity="0.5"></path></svg>`,
    );
  });

  it('keeps images only as local files or raster data: URLs, as the caller maps them', () => {
    const input = `<svg ${NS}><image href="img/a.png"/><image href="data:image/png;base64,AAAA"/><image href="data:image/svg+xml,&lt;svg/&gt;"/></svg>`;
    expect(svg.sanitize(input)).toBe(
      `<svg ${NS}><image></image><image href="data:image/png;base64,AAAA"></image><image></image></svg>`,
    );
    const mapped = svg.sanitize(input, {
      baseUrl: 'https://site.test/page/',
      rewriteUrl: (u) => (u === 'https://site.test/page/img/a.png' ? '3fa2c4d1e0b9a8f7c6d5.png' : null),
    });
    expect(mapped).toBe(
      `<svg ${NS}><image href="3fa2c4d1e0b9a8f7c6d5.png"></image><image></image><image></image></svg>`,
    );
    // A mapping that answers something remote is not trusted either.
    expect(svg.sanitize(input, { baseUrl: 'https://site.test/', rewriteUrl: (u) => u })).not.toMatch(
      /href="[^#]/,
    );
    // The capture keeps absolute image URLs for the host, which sanitizes again before writing.
    expect(svg.sanitize(input, { baseUrl: 'https://site.test/p/', keepRemoteImages: true })).toContain(
      'href="https://site.test/p/img/a.png"',
    );
  });

  it('refuses what it cannot read safely', () => {
    expect(() => svg.sanitize('<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>')).toThrow(SvgRejectedError);
    expect(() => svg.sanitize(`<svg ${NS}><rect</svg>`)).toThrow(/well-formed/);
    expect(() => svg.sanitize('<html xmlns="http://www.w3.org/1999/xhtml"/>')).toThrow(/root/);
    expect(() => svg.sanitize('<svg><rect/></svg>')).toThrow(/root/);
  });

  it('never lets an attribute value end its tag', () => {
    const out = svg.sanitize(
      `<svg ${NS}><rect id='a"&gt;b&amp;' width="1"/><text>&lt;/svg&gt;&lt;img&gt;</text></svg>`,
    );
    expect(out).toBe(
      `<svg ${NS}><rect id="a&quot;&gt;b&amp;" width="1"></rect><text>&lt;/svg&gt;&lt;img&gt;</text></svg>`,
    );
    // Markup-looking attribute values are dropped outright (DOMPurify's mutation-XSS guard).
    expect(svg.sanitize(`<svg ${NS}><rect id="&lt;/style&gt;&lt;img&gt;" width="1"/></svg>`)).toBe(
      `<svg ${NS}><rect width="1"></rect></svg>`,
    );
  });
});
