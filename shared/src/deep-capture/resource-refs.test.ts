import { describe, expect, it } from 'vitest';
import { testNode } from '#test/helpers/captures.js';
import { collectResourceRefs } from './resource-refs.js';

describe('collectResourceRefs', () => {
  it('lists the images of the page background and of the ancestors drawn under the root', () => {
    const refs = collectResourceRefs(
      [testNode({ tag: 'div', styles: { 'background-image': 'url("https://site.test/card.png")' } })],
      [],
      [
        {
          tag: 'canvas',
          rect: { x: 0, y: 0, width: 10, height: 10 },
          styles: { 'background-image': 'url("https://site.test/tile.png")' },
        },
        {
          tag: 'header',
          rect: { x: 0, y: 0, width: 10, height: 10 },
          styles: { 'background-image': 'linear-gradient(red, blue), url("https://site.test/hero.jpg")' },
        },
      ],
    );
    expect(refs.map((r) => [r.url, r.nodes])).toEqual([
      ['https://site.test/card.png', [0]],
      ['https://site.test/tile.png', []],
      ['https://site.test/hero.jpg', []],
    ]);
  });
});
