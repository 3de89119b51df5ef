import { describe, expect, it } from 'vitest';
import { SvgRejectedError, sanitizeSvg } from './svg-sanitize.js';

describe('sanitizeSvg', () => {
  it('keeps drawing markup as it is', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><path d="M0 0h24" fill="url(#g)" style="stroke: rgb(0, 0, 0)"/><use href="#g"/></svg>';
    expect(sanitizeSvg(svg)).toBe(svg);
  });

  it('removes scripts, foreign content, styles and animation with everything inside', () => {
    const out = sanitizeSvg(
      '<svg><script>alert(1)</script><foreignObject><div><script>x()</script></div></foreignObject><style>@import url(//evil)</style><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(1)"></animate><rect/></svg>',
    );
    expect(out).toBe('<svg><rect/></svg>');
  });

  it('removes handlers and script URLs however they are spelled', () => {
    const out = sanitizeSvg(
      '<svg onload="a()"><a href="javascript:alert(1)" xlink:href="&#106;avascript:alert(1)"><rect ONCLICK="b()" svg:onmouseover="c()" filter="url(#f)"/></a><image href=" JaVaScRiPt:x"/></svg>',
    );
    expect(out).toBe('<svg><a><rect filter="url(#f)"/></a><image/></svg>');
  });

  it('keeps fragment references, local and data images, and drops remote ones', () => {
    const map = (url: string) => (url === 'https://cdn.test/a.png' ? 'abc.png' : null);
    const out = sanitizeSvg(
      '<svg><use href="#icon"/><image href="https://cdn.test/a.png"/><image href="https://other.test/b.png"/><image href="data:image/png;base64,AAAA"/><image href="data:image/svg+xml,&lt;svg/&gt;"/><use href="https://cdn.test/sprite.svg#x"/></svg>',
      { rewriteUrl: map },
    );
    expect(out).toBe(
      '<svg><use href="#icon"/><image href="abc.png"/><image/><image href="data:image/png;base64,AAAA"/><image/><use/></svg>',
    );
  });

  it('resolves relative image references against the base URL', () => {
    expect(sanitizeSvg('<svg><image href="img/a.png"/></svg>', { baseUrl: 'https://site.test/page/' })).toBe(
      '<svg><image href="https://site.test/page/img/a.png"/></svg>',
    );
  });

  it('drops url() declarations of style attributes unless they point into the document', () => {
    expect(
      sanitizeSvg(
        '<svg><rect style="fill: url(#g); stroke: red; filter: url(https://x.test/f.svg#a)"/></svg>',
      ),
    ).toBe('<svg><rect style="fill: url(#g); stroke: red"/></svg>');
  });

  it('drops comments and processing instructions, keeps CDATA text escaped', () => {
    expect(sanitizeSvg('<?xml version="1.0"?><!-- c --><svg><text><![CDATA[a < b]]></text></svg>')).toBe(
      '<svg><text>a &lt; b</text></svg>',
    );
  });

  it('refuses entity definitions and markup it cannot read', () => {
    expect(() => sanitizeSvg('<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>')).toThrow(SvgRejectedError);
    expect(() => sanitizeSvg('<svg><rect')).toThrow(SvgRejectedError);
    expect(() => sanitizeSvg('<svg><!-- open')).toThrow(SvgRejectedError);
    expect(() => sanitizeSvg('<svg><1bad/></svg>')).toThrow(SvgRejectedError);
  });

  it('keeps quoted ">" inside attribute values and re-escapes quotes', () => {
    expect(sanitizeSvg(`<svg><text data-x='a>"b'>t</text></svg>`)).toBe(
      '<svg><text data-x="a>&quot;b">t</text></svg>',
    );
  });
});
