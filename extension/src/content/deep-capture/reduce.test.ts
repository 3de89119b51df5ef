import { describe, expect, it } from 'vitest';
import { isCentered, pickStyles, reducePseudoStyles, reduceStyles } from './reduce.js';

const initial = new Map(
  Object.entries({
    color: 'rgb(0, 0, 0)',
    display: 'inline',
    'font-size': '16px',
    'margin-top': '0px',
    width: 'auto',
    'border-top-color': 'rgb(0, 0, 0)',
    'caret-color': 'rgb(0, 0, 0)',
    'transform-origin': '50% 50%',
    'margin-block-start': '0px',
    content: 'normal',
  }),
);
const names = [...initial.keys()];
const lookup =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? initial.get(name) ?? '';
const box = { width: 200, height: 40 };

describe('reduceStyles', () => {
  it('keeps non-inherited values that differ from initial, and nothing else', () => {
    const own = lookup({ display: 'block', width: '200px', 'margin-top': '0px' });
    expect(reduceStyles({ names, own, parent: lookup({}), initial, box })).toEqual({
      display: 'block',
      width: '200px',
    });
  });

  it('keeps an inherited value only where it differs from the clone parent', () => {
    const parent = lookup({ color: 'rgb(255, 0, 0)', 'font-size': '20px' });
    const same = lookup({ color: 'rgb(255, 0, 0)', 'font-size': '20px' });
    const bigger = lookup({ color: 'rgb(255, 0, 0)', 'font-size': '24px' });
    expect(reduceStyles({ names, own: same, parent, initial, box })).toEqual({});
    expect(reduceStyles({ names, own: bigger, parent, initial, box })).toEqual({ 'font-size': '24px' });
  });

  it('compares the root (no clone parent) with initial values', () => {
    const own = lookup({ color: 'rgb(255, 0, 0)', 'font-size': '16px' });
    expect(reduceStyles({ names, own, parent: null, initial, box })).toEqual({
      color: 'rgb(255, 0, 0)',
    });
  });

  it('recognises currentcolor defaults reported as the element colour', () => {
    const parent = lookup({ color: 'rgb(0, 0, 255)', 'caret-color': 'rgb(0, 0, 255)' });
    const own = lookup({
      color: 'rgb(255, 0, 0)',
      'border-top-color': 'rgb(255, 0, 0)',
      'caret-color': 'rgb(255, 0, 0)',
    });
    expect(reduceStyles({ names, own, parent, initial, box })).toEqual({ color: 'rgb(255, 0, 0)' });
    const explicit = lookup({ color: 'rgb(255, 0, 0)', 'border-top-color': 'rgb(1, 2, 3)' });
    expect(reduceStyles({ names, own: explicit, parent, initial, box })).toMatchObject({
      'border-top-color': 'rgb(1, 2, 3)',
    });
  });

  it('keeps an inherited currentcolor value that overrides an explicit parent value', () => {
    // The parent set caret-color explicitly (not its own colour); the child's equals its colour.
    const parent = lookup({ color: 'rgb(0, 0, 255)', 'caret-color': 'rgb(9, 9, 9)' });
    const own = lookup({ color: 'rgb(255, 0, 0)', 'caret-color': 'rgb(255, 0, 0)' });
    expect(reduceStyles({ names, own, parent, initial, box })).toEqual({
      color: 'rgb(255, 0, 0)',
      'caret-color': 'rgb(255, 0, 0)',
    });
  });

  it('drops a transform origin that is the centre of the box, keeps any other', () => {
    const centred = lookup({ 'transform-origin': '100px 20px' });
    const corner = lookup({ 'transform-origin': '0px 0px' });
    expect(reduceStyles({ names, own: centred, parent: null, initial, box })).toEqual({});
    expect(reduceStyles({ names, own: corner, parent: null, initial, box })).toEqual({
      'transform-origin': '0px 0px',
    });
  });

  it('never records logical aliases of physical properties', () => {
    const own = lookup({ 'margin-top': '8px', 'margin-block-start': '8px' });
    expect(reduceStyles({ names, own, parent: null, initial, box })).toEqual({ 'margin-top': '8px' });
  });
});

describe('isCentered', () => {
  it('accepts two or three components', () => {
    expect(isCentered('100px 20px', box)).toBe(true);
    expect(isCentered('100px 20px 0px', box)).toBe(true);
    expect(isCentered('100px 20px 5px', box)).toBe(false);
    expect(isCentered('left top', box)).toBe(false);
    expect(isCentered('50% 50%', { width: 0, height: 0 })).toBe(true);
  });
});

describe('reducePseudoStyles', () => {
  it('keeps the content that makes the pseudo-element exist', () => {
    const own = lookup({ content: '"→"', display: 'block' });
    expect(reducePseudoStyles({ names, own, parent: lookup({}), initial, box })).toEqual({
      content: '"→"',
      display: 'block',
    });
  });
});

describe('pickStyles', () => {
  it('keeps the listed properties that are present', () => {
    expect(pickStyles({ width: '1px', color: 'red' }, ['width', 'height'])).toEqual({ width: '1px' });
  });
});

describe('a line drawn with no width', () => {
  it('keeps a zero width where the style draws a line: the clone’s initial width is medium (3px)', () => {
    const base = new Map([
      ...initial,
      ['border-top-style', 'none'],
      ['border-top-width', '0px'],
      ['outline-style', 'none'],
      ['outline-width', '0px'],
    ]);
    const own = (values: Record<string, string>) => (name: string) => values[name] ?? base.get(name) ?? '';
    const cell = own({ 'border-top-style': 'solid', 'border-top-width': '0px', 'outline-style': 'dotted' });
    const styles = reduceStyles({ names: [...base.keys()], own: cell, parent: own({}), initial: base, box });
    expect(styles).toMatchObject({
      'border-top-style': 'solid',
      'border-top-width': '0px',
      'outline-style': 'dotted',
      'outline-width': '0px',
    });
  });
});
