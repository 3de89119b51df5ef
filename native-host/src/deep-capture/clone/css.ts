import type { AreaCapture, CaptureNode, StyleMap } from '#shared/deep-capture/area-capture.js';
import { cssValueIsLocal } from '#shared/deep-capture/css-safety.js';
import { staysInDeclaration } from '#shared/deep-capture/css-scan.js';
import { rewriteCssUrls } from '#shared/deep-capture/css-urls.js';
import { buildTokens, compactShorthands, orderedEntries, type Tokens, tokenize } from './declarations.js';

/**
 * The clone's `area-N-styles.css`.
 *
 * Every element of the clone first loses every browser default (`all: unset` in a cascade layer,
 * so inherited properties still inherit and any unlayered rule wins); then one rule per element
 * states what the capture recorded: exactly the values that differ from those defaults (see the
 * engine's reduce.ts). The area is a fixed-size box at the page's top-left; ancestors' backgrounds
 * are absolutely placed layers under the root, which sits where it was in the area.
 *
 * Nothing in it can reach the network: url()s point at local files (or are emptied), and a
 * declaration that still names a remote URL, or that could break out of its rule, is left out.
 */

export interface CssOptions {
  areaId: string;
  sourceUrl: string;
  names: readonly string[];
  resourcePath(url: string): string | null;
  /** False for the SingleFile-style baseline: no reset, no tokens, values as captured. */
  reduced: boolean;
}

const PROPERTY_NAME = /^(?:-?[a-z][a-z0-9-]*|--[\w-]+)$/;

/**
 * A declaration is written only when it is one declaration and loads nothing but local files and
 * fragments, judged as the CSS parser reads it (escapes decoded, case folded: css-safety.ts).
 */
export function safeDeclaration(prop: string, value: string): boolean {
  return PROPERTY_NAME.test(prop) && staysInDeclaration(value) && cssValueIsLocal(value);
}

function block(selector: string, styles: StyleMap, indent = ''): string {
  const lines = orderedEntries(styles)
    .filter(([prop, value]) => safeDeclaration(prop, value))
    .map(([prop, value]) => `${indent}  ${prop}: ${value};`);
  return lines.length === 0 ? '' : `${indent}${selector} {\n${lines.join('\n')}\n${indent}}\n`;
}

const px = (n: number) => `${Math.round(n * 1000) / 1000}px`;
const comment = (text: string) => `/* ${text.replaceAll('*/', '* /')} */`;

export function renderCss(capture: AreaCapture, options: CssOptions): string {
  const { nodes } = capture;
  const localUrls = (value: string) => rewriteCssUrls(value, (url) => options.resourcePath(url));
  const tokens: Tokens | null = options.reduced
    ? buildTokens(
        nodes.flatMap((n) => [n.styles, ...Object.values(n.pseudo)]),
        capture.custom_properties,
      )
    : null;
  const finish = (styles: StyleMap): StyleMap => {
    const out: StyleMap = {};
    for (const [prop, value] of Object.entries(styles)) {
      const local = localUrls(value);
      out[prop] = tokens === null ? local : tokenize(prop, local, tokens);
    }
    return tokens === null ? out : compactShorthands(out);
  };

  const parts: string[] = [];
  parts.push(
    `${comment(
      `${options.areaId}: a standalone clone of ${capture.rect.width}×${capture.rect.height} CSS px of ${options.sourceUrl}. ` +
        'One rule per element (class names from roles, tags and the page’s own classes); ' +
        '--color-* / --font-* and the page’s custom properties are the area’s palette and type.',
    )}\n`,
  );
  parts.push(fontFaces(capture, options));
  if (tokens !== null && tokens.properties.size > 0) {
    parts.push(block(':root', Object.fromEntries(tokens.properties)));
  }
  if (options.reduced) {
    parts.push(
      `${comment('Every element starts from CSS initial values; its rule below says what differs.')}\n` +
        '@layer reset {\n' +
        '  :where(.area [class]:not(svg *)),\n' +
        '  :where(.area [class]:not(svg *))::before,\n' +
        '  :where(.area [class]:not(svg *))::after {\n' +
        '    all: unset;\n' +
        '  }\n' +
        '}\n',
    );
  }
  parts.push('html,\nbody {\n  margin: 0;\n}\n');
  parts.push(
    block('.area', {
      position: 'relative',
      overflow: 'hidden',
      isolation: 'isolate',
      width: px(capture.rect.width),
      height: px(capture.rect.height),
      'background-color': capture.canvas_color,
    }),
  );
  capture.backdrop.forEach((layer, i) => {
    parts.push(
      block(`.backdrop-${i + 1}`, {
        position: 'absolute',
        // Ancestors paint under everything the root holds, negative z-indexes included.
        'z-index': '-2147483647',
        left: px(layer.rect.x),
        top: px(layer.rect.y),
        'box-sizing': 'border-box',
        width: px(layer.rect.width),
        height: px(layer.rect.height),
        ...finish(layer.styles),
      }),
    );
  });
  const clip = capture.clip;
  if (clip !== null) {
    parts.push(
      block('.area-clip', {
        position: 'absolute',
        left: px(clip.x),
        top: px(clip.y),
        width: px(clip.width),
        height: px(clip.height),
        overflow: 'hidden',
      }),
    );
  }
  nodes.forEach((node, i) => {
    const name = options.names[i] ?? `node-${i}`;
    let styles = finish(node.styles);
    if (i === capture.root) styles = placeRoot(styles, node, clip === null ? { x: 0, y: 0 } : clip);
    if (node.kind === 'gap') styles = { ...styles, visibility: 'hidden' };
    if (node.kind === 'pixels' && node.pixels?.from_crop === true) styles = cropImageStyles(styles, node);
    if (node.scroll !== null && styles.position === undefined) styles = { ...styles, position: 'relative' };
    parts.push(block(`.${name}`, styles));
    if (node.scroll !== null) parts.push(scrollMarker(name, node.scroll));
    for (const [pseudo, pseudoStyles] of Object.entries(node.pseudo)) {
      if (pseudoStyles !== undefined) parts.push(block(`.${name}::${pseudo}`, finish(pseudoStyles)));
    }
  });
  parts.push(stateRules(nodes, options.names, finish));
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * An image cut from the area's screenshot shows the element's whole border box, cut on whole
 * pixels around it: no border, padding or background of its own, drawn unscaled and shifted by
 * the element's sub-pixel offset so each pixel lands where it was.
 */
export function cropImageStyles(styles: StyleMap, node: CaptureNode): StyleMap {
  const out: StyleMap = {};
  for (const [prop, value] of Object.entries(styles)) {
    if (
      !/^(border(?!-radius|-top-left|-top-right|-bottom-left|-bottom-right)|padding|background)/.test(prop)
    ) {
      out[prop] = value;
    }
  }
  const fx = node.rect.x - Math.floor(node.rect.x);
  const fy = node.rect.y - Math.floor(node.rect.y);
  return {
    ...out,
    'box-sizing': 'border-box',
    width: px(node.rect.width),
    height: px(node.rect.height),
    'object-fit': 'none',
    'object-position': `${px(-fx)} ${px(-fy)}`,
  };
}

/**
 * A scroll container opens where the page had scrolled it: an empty marker at that offset is its
 * initial scroll target (CSS `scroll-initial-target`), so no script is needed.
 */
function scrollMarker(name: string, scroll: { x: number; y: number }): string {
  return block(`.${name}-scrolled`, {
    position: 'absolute',
    left: px(scroll.x),
    top: px(scroll.y),
    width: '0',
    height: '0',
    'scroll-initial-target': 'nearest',
    'scroll-snap-align': 'start',
  });
}

/**
 * The root sits where it was in the area (relative to the clip wrapper when there is one), at the
 * size layout gave it. Its size limits go: in the page they were resolved against its containing
 * block, in the clone a percentage would resolve against the area, which may be narrower than the
 * root (Bootstrap's `max-width: 100%` on every grid column would shrink a column the area shows
 * only part of, and reflow all it holds); the width and height from layout already obey them.
 */
function placeRoot(styles: StyleMap, node: CaptureNode, origin: { x: number; y: number }): StyleMap {
  const out: StyleMap = { ...styles };
  for (const prop of ['top', 'right', 'bottom', 'left', 'margin', 'inset']) delete out[prop];
  for (const side of ['top', 'right', 'bottom', 'left']) delete out[`margin-${side}`];
  for (const axis of ['width', 'height']) {
    if (!out[axis]?.endsWith('px')) continue;
    delete out[`min-${axis}`];
    delete out[`max-${axis}`];
  }
  return {
    ...out,
    position: 'absolute',
    left: px(node.rect.x - origin.x),
    top: px(node.rect.y - origin.y),
    margin: '0',
  };
}

function stateRules(
  nodes: readonly CaptureNode[],
  names: readonly string[],
  finish: (s: StyleMap) => StyleMap,
): string {
  let out = '';
  nodes.forEach((node, i) => {
    for (const state of node.states) {
      const own = names[i];
      const target = names[state.target];
      if (own === undefined || target === undefined) continue;
      const pseudo = state.pseudo === null ? '' : `::${state.pseudo}`;
      const selector =
        state.target === i ? `.${own}:${state.state}${pseudo}` : `.${target}:${state.state} .${own}${pseudo}`;
      out += block(selector, finish(state.styles));
    }
  });
  return out === ''
    ? ''
    : `${comment('States the page’s stylesheets define (hover, focus, active).')}\n${out}`;
}

function fontFaces(capture: AreaCapture, options: CssOptions): string {
  let out = '';
  for (const font of capture.fonts) {
    const local = font.src === null ? null : options.resourcePath(font.src);
    if (local === null) continue;
    const styles: StyleMap = {
      'font-family': JSON.stringify(font.family),
      src: `url(${JSON.stringify(local)})${font.format === null ? '' : ` format(${JSON.stringify(font.format)})`}`,
      'font-weight': font.weight,
      'font-style': font.style,
      'font-stretch': font.stretch,
    };
    if (font.unicode_range !== '' && font.unicode_range.toUpperCase() !== 'U+0-10FFFF') {
      styles['unicode-range'] = font.unicode_range;
    }
    const lines = Object.entries(styles)
      .filter(([prop, value]) => safeDeclaration(prop, value))
      .map(([prop, value]) => `  ${prop}: ${value};`);
    out += `@font-face {\n${lines.join('\n')}\n}\n`;
  }
  return out;
}
