/**
 * Property-based tests of the reference-data schema and the idea store (Hostile input;
 * docs/architecture.md, The idea store), on real files in a temp workspace:
 * - random valid data round-trips: the saved session equals the input (as JSON) except that each
 *   `base64:` screenshot is replaced by the relative path of a file holding exactly those bytes;
 *   the merged view parses and holds this session's items;
 * - random invalid data is refused with VALIDATION_ERROR naming the broken field, and the whole
 *   temp tree is byte-identical afterwards;
 * - hostile idea_folder strings never cause a write outside
 *   `<ws>/x-ipe-docs/ideas/<idea>/uiux-references/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XipeError } from '#shared/errors.js';
import { saveReference } from '#shared/node/idea-store/index.js';
import {
  BASE64_PREFIX,
  ideaFolderProblem,
  MergedReferenceData,
  ReferenceData,
} from '#shared/reference-data.js';
import { hashTree } from '../helpers/fault-host.js';
import { makePng, makeWorkspace, type TempWorkspace } from '../helpers/store-fixtures.js';

const SEED = 0x5a7e;
const RUNS = Number(process.env.XIPE_STORE_PROPERTY_RUNS ?? 40);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** What arrives over the wire: JSON.parse output (own `__proto__` keys stay plain keys). */
const asWire = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;

// ── arbitraries of valid data ─────────────────────────────────────────────────────────────────

const pad3 = (n: number): string => String(n).padStart(3, '0');
const byte = fc.integer({ min: 0, max: 255 });
const hexOf = (n: number, digits: number): string => n.toString(16).padStart(digits, '0');
const hex = fc.oneof(
  fc.integer({ min: 0, max: 0xfff }).map((n) => `#${hexOf(n, 3)}`),
  fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${hexOf(n, 6).toUpperCase()}`),
  fc.integer({ min: 0, max: 0xffffffff }).map((n) => `#${hexOf(n, 8)}`),
);
const text = fc.string({ maxLength: 30, unit: 'grapheme' });
/** Keys a naive merge could mishandle (`__proto__` has its own test below: it is dropped). */
const trickyKey = fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', 'id ☕', '');
const extra = fc.dictionary(fc.oneof(trickyKey, fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});

/** Valid `base64:` PNGs (a few sizes), paths kept as they are, or null. */
const screenshot = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 1e6 }))
    .map(([w, h, seed]) => `${BASE64_PREFIX}${makePng(w, h, seed).toString('base64')}`),
  fc.constantFrom('screenshots/existing.png', '/abs/elsewhere/shot.png', 'base64', 'BASE64:notdecoded'),
  fc.constant(null),
);

const color = fc
  .record(
    {
      n: fc.integer({ min: 1, max: 99_999 }),
      hex,
      rgb: fc.tuple(byte, byte, byte).map(([r, g, b]) => `${r}, ${g}, ${b}`),
      hsl: fc
        .tuple(
          fc.integer({ min: 0, max: 360 }),
          fc.integer({ min: 0, max: 100 }),
          fc.integer({ min: 0, max: 100 }),
        )
        .map(([h, s, l]) => `${h}, ${s}%, ${l}%`),
      source_selector: text,
      context: text,
      extra,
    },
    { requiredKeys: ['n', 'hex', 'extra'] },
  )
  .map(({ n, extra: more, ...rest }) => ({ ...more, ...rest, id: `color-${pad3(n)}` }));

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
const element = fc
  .record(
    {
      n: fc.integer({ min: 1, max: 99_999 }),
      selector: fc.string({ minLength: 1, maxLength: 40 }),
      tag: fc.constantFrom('div', 'nav', 'button', 'svg', 'x-custom-element'),
      bounding_box: fc.record({
        x: finite,
        y: finite,
        width: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }),
        height: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }),
      }),
      screenshots: fc.record({ full_page: screenshot, element_crop: screenshot }, { requiredKeys: [] }),
      comment: fc.oneof(text, fc.constant(null)),
      extracted_assets: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), extra),
      extra,
    },
    { requiredKeys: ['n', 'selector', 'extra'] },
  )
  .map(({ n, extra: more, ...rest }) => ({ ...more, ...rest, id: `elem-${pad3(n)}` }));

const designTokens = fc.oneof(
  fc.record({
    colors: fc.record({ primary: hex, secondary: hex }, { requiredKeys: [] }),
    typography: fc.record({
      heading_font: text,
      body_font: text,
      base_size: fc.constantFrom('14px', '1rem'),
    }),
  }),
  fc.dictionary(fc.oneof(trickyKey, fc.string({ maxLength: 10 })), fc.jsonValue({ maxDepth: 3 }), {
    maxKeys: 4,
  }),
);

const timestamp = fc
  .tuple(
    fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom('Z', '+00:00', '+05:30', '-08:00'),
  )
  .map(([date, zone]) => date.toISOString().replace('Z', zone));

const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('http://localhost:5173/', 'file:///home/me/page.html', 'https://例え.jp/パス?q=1'),
);

function validData(ideas: readonly string[]): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      {
        source_url: url,
        timestamp,
        idea_folder: fc.constantFrom(...ideas),
        auth_url: fc.oneof(url, fc.constant(null)),
        session_id: fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null)),
        colors: fc.uniqueArray(color, { maxLength: 4, selector: (c) => c.id }),
        elements: fc.uniqueArray(element, { maxLength: 3, selector: (e) => e.id }),
        design_tokens: designTokens,
        extra,
      },
      { requiredKeys: ['source_url', 'timestamp', 'idea_folder', 'extra'] },
    )
    .map(({ extra: more, ...rest }) => asWire({ ...more, ...rest, version: '1.0' }))
    .filter(
      (d) =>
        (Array.isArray(d.colors) && d.colors.length > 0) ||
        (Array.isArray(d.elements) && d.elements.length > 0) ||
        (typeof d.design_tokens === 'object' &&
          d.design_tokens !== null &&
          Object.keys(d.design_tokens).length > 0),
    );
}

// ── helpers ───────────────────────────────────────────────────────────────────────────────────

let ws: TempWorkspace;
const IDEAS = ['018. Feature-UIUX Reference', 'idée café ☕', '日本語のアイデア', '...', 'a'.repeat(200)];

beforeAll(() => {
  ws = makeWorkspace(IDEAS);
  // A sibling of the ideas dir and of the workspace, to catch escapes.
  fs.mkdirSync(path.join(ws.workspace, 'x-ipe-docs', 'other'), { recursive: true });
  fs.mkdirSync(path.join(ws.root, 'outside'));
});
afterAll(() => ws.cleanup());

async function failureOf(promise: Promise<unknown>): Promise<XipeError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof XipeError) return err;
    throw new Error(`not a XipeError: ${(err as Error).stack ?? String(err)}`);
  }
  throw new Error('the save succeeded but should have failed');
}

function issueFields(err: XipeError): string[] {
  const issues = (err.details?.issues ?? []) as Array<{ field?: unknown }>;
  return issues.map((i) => String(i.field));
}

/** The entries of `after` that are new or changed relative to `before`. */
function changed(before: readonly string[], after: readonly string[]): string[] {
  const old = new Set(before);
  return after.filter((line) => !old.has(line));
}

// ── properties ────────────────────────────────────────────────────────────────────────────────

describe('reference data round-trips through the store', () => {
  it('saves the input as given, base64 screenshots replaced by paths to files with those bytes', async () => {
    await fc.assert(
      fc.asyncProperty(validData(IDEAS), async (input) => {
        expect(ReferenceData.safeParse(input).success).toBe(true);
        const result = await saveReference({ workspace: ws.workspace, data: input });
        const session = JSON.parse(
          fs.readFileSync(path.join(ws.workspace, result.session_path), 'utf8'),
        ) as JsonObject;
        expect(session.session_number).toBe(result.session_number);
        expect(typeof session.saved_at).toBe('string');
        const { session_number: _n, saved_at: _s, ...saved } = session;

        // Expected: the input with each base64 value (element order, full_page before element_crop)
        // replaced by the next written file.
        const expected = asWire(input);
        const written = [...result.screenshots];
        for (const item of (expected.elements ?? []) as JsonObject[]) {
          const shots = item.screenshots as JsonObject | undefined;
          for (const kind of ['full_page', 'element_crop']) {
            const value = shots?.[kind];
            if (shots === undefined || typeof value !== 'string' || !value.startsWith(BASE64_PREFIX))
              continue;
            const file = written.shift();
            expect(file, 'one written file per base64 screenshot').toBeDefined();
            if (file === undefined) continue;
            const bytes = fs.readFileSync(path.join(ws.workspace, file));
            expect(bytes.equals(Buffer.from(value.slice(BASE64_PREFIX.length), 'base64'))).toBe(true);
            expect(
              file.startsWith(`x-ipe-docs/ideas/${input.idea_folder}/uiux-references/screenshots/`),
            ).toBe(true);
            shots[kind] = `screenshots/${path.basename(file)}`;
          }
        }
        expect(written).toEqual([]);
        expect(saved).toEqual(expected);

        // The merged view parses and holds this (latest) session's items exactly.
        const merged = MergedReferenceData.parse(
          JSON.parse(fs.readFileSync(path.join(ws.workspace, result.reference_data_path), 'utf8')),
        );
        expect(merged.sessions.map((s) => s.file)).toContain(`sessions/${result.session_file}`);
        expect(merged.source_urls).toContain(input.source_url);
        for (const key of ['colors', 'elements'] as const) {
          for (const item of (saved[key] ?? []) as JsonObject[]) {
            expect(merged[key].find((m) => m.id === item.id)).toEqual(item);
          }
        }
        const tokens = saved.design_tokens as JsonObject | undefined;
        if (tokens !== undefined && Object.keys(tokens).length > 0)
          expect(merged.design_tokens).toEqual(tokens);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

describe('a __proto__ key in reference data', () => {
  it('is dropped, never becomes a prototype, and cannot smuggle in an unvalidated section', async () => {
    const idea = IDEAS[0] as string;
    const head = `"version":"1.0","source_url":"https://a.test/","timestamp":"2025-01-01T00:00:00Z","idea_folder":${JSON.stringify(idea)}`;
    const smuggled =
      '"__proto__":{"elements":[{"id":"../../evil","screenshots":{"thumbnail":"x"}}],"colors":[{"id":"bad","hex":"blue"}]}';
    const before = hashTree(ws.root);
    const onlySmuggled = await failureOf(
      saveReference({ workspace: ws.workspace, data: JSON.parse(`{${head},${smuggled}}`) }),
    );
    expect(onlySmuggled.code).toBe('VALIDATION_ERROR');
    expect(hashTree(ws.root)).toEqual(before);

    const data = JSON.parse(`{${head},"design_tokens":{"a":1,"__proto__":{"b":2}},${smuggled}}`) as unknown;
    const result = await saveReference({ workspace: ws.workspace, data });
    const session = JSON.parse(
      fs.readFileSync(path.join(ws.workspace, result.session_path), 'utf8'),
    ) as JsonObject;
    expect(Object.keys(session).sort()).toEqual(
      [
        'version',
        'source_url',
        'timestamp',
        'idea_folder',
        'design_tokens',
        'session_number',
        'saved_at',
      ].sort(),
    );
    expect(session.design_tokens).toEqual({ a: 1 });
    const merged = JSON.parse(
      fs.readFileSync(path.join(ws.workspace, result.reference_data_path), 'utf8'),
    ) as JsonObject;
    expect(JSON.stringify(merged)).not.toContain('evil');
    expect(({} as Record<string, unknown>).elements).toBeUndefined(); // no global pollution either
  });
});

/** A way to break valid data: set (or delete, with `undefined`) the value at `at`; `field` must be named. */
interface Mutation {
  name: string;
  field: string;
  at: Array<string | number>;
  value: Json | undefined;
}

const DEFAULT_ITEM: Record<string, JsonObject> = {
  colors: { id: 'color-001', hex: '#000' },
  elements: { id: 'elem-001', selector: 'x' },
};

/** Applies a mutation (paths are `[key]` or `[section, 0, key]`), creating the first item if needed. */
function mutate(data: JsonObject, { at, value }: Mutation): void {
  let target = data;
  let key = String(at[0]);
  if (at.length === 3) {
    const current = data[key];
    const list: Json[] = Array.isArray(current) && current.length > 0 ? current : [{ ...DEFAULT_ITEM[key] }];
    data[key] = list;
    target = list[0] as JsonObject;
    key = String(at[2]);
  }
  if (value === undefined) delete target[key];
  else target[key] = value;
}

const png = makePng(3, 3, 7).toString('base64');
const m = (name: string, field: string, at: Array<string | number>, value: Json | undefined): Mutation => ({
  name,
  field,
  at,
  value,
});

const MUTATIONS: Mutation[] = [
  m('version 4.0', 'version', ['version'], '4.0'),
  m('version number', 'version', ['version'], 1),
  m('no version', 'version', ['version'], undefined),
  m('relative source_url', 'source_url', ['source_url'], '/pricing'),
  m('source_url not a url', 'source_url', ['source_url'], 'not a url'),
  m('no source_url', 'source_url', ['source_url'], undefined),
  m('timestamp words', 'timestamp', ['timestamp'], 'yesterday'),
  m('timestamp month 13', 'timestamp', ['timestamp'], '2025-13-01T00:00:00Z'),
  m('timestamp no zone', 'timestamp', ['timestamp'], '2025-01-01 10:00'),
  m('idea_folder ..', 'idea_folder', ['idea_folder'], '..'),
  m('idea_folder with /', 'idea_folder', ['idea_folder'], 'a/../../x'),
  m('idea_folder empty', 'idea_folder', ['idea_folder'], ''),
  m('idea_folder number', 'idea_folder', ['idea_folder'], 18),
  m('auth_url relative', 'auth_url', ['auth_url'], 'login'),
  m('session_id object', 'session_id', ['session_id'], { n: 1 }),
  m('colors not array', 'colors', ['colors'], { id: 'color-001' }),
  m('color hex word', 'colors.0.hex', ['colors', 0, 'hex'], 'blue'),
  m('color id', 'colors.0.id', ['colors', 0, 'id'], 'c1'),
  m('color rgb > 255', 'colors.0.rgb', ['colors', 0, 'rgb'], '300, 0, 0'),
  m('color hsl > 100%', 'colors.0.hsl', ['colors', 0, 'hsl'], '10, 101%, 5%'),
  m('element id', 'elements.0.id', ['elements', 0, 'id'], 'element-1'),
  m('element selector empty', 'elements.0.selector', ['elements', 0, 'selector'], ''),
  m('negative width', 'elements.0.bounding_box.width', ['elements', 0, 'bounding_box'], {
    x: 0,
    y: 0,
    width: -1,
    height: 1,
  }),
  m(
    'base64 image under another screenshot key',
    'elements.0.screenshots.thumbnail',
    ['elements', 0, 'screenshots'],
    {
      thumbnail: `base64:${png}`,
    },
  ),
  m('screenshot base64 not a png', 'elements.0.screenshots.full_page', ['elements', 0, 'screenshots'], {
    full_page: `base64:${Buffer.from('GIF89a'.repeat(20)).toString('base64')}`,
  }),
  m(
    'screenshot base64 with junk after a valid head',
    'elements.0.screenshots.element_crop',
    ['elements', 0, 'screenshots'],
    {
      element_crop: `base64:${png.slice(0, 60)}!!${png.slice(60)}`,
    },
  ),
  m(
    'screenshot base64 truncated mid-quad',
    'elements.0.screenshots.full_page',
    ['elements', 0, 'screenshots'],
    {
      full_page: `base64:${png.slice(0, -1)}`,
    },
  ),
  m('every section empty (colors)', '(root)', ['colors'], []),
];

describe('invalid reference data', () => {
  it('is refused with VALIDATION_ERROR naming the field, and nothing on disk changes', async () => {
    await fc.assert(
      fc.asyncProperty(validData(IDEAS), fc.constantFrom(...MUTATIONS), async (base, mutation) => {
        const data = asWire(base);
        mutate(data, mutation);
        if (mutation.name.startsWith('every section empty')) {
          data.elements = [];
          data.design_tokens = {};
        }
        const before = hashTree(ws.root);
        const err = await failureOf(saveReference({ workspace: ws.workspace, data }));
        expect(err.code, mutation.name).toBe('VALIDATION_ERROR');
        const fields = issueFields(err);
        expect(
          fields.some((f) => f === mutation.field || f.startsWith(`${mutation.field}.`)),
          `${mutation.name}: fields ${JSON.stringify(fields)} / ${err.message}`,
        ).toBe(true);
        expect(err.message.length).toBeGreaterThan(0);
        expect(hashTree(ws.root), mutation.name).toEqual(before);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

// ── hostile idea_folder ───────────────────────────────────────────────────────────────────────

const HOSTILE_PARTS = [
  '..',
  '.',
  '/',
  '\\',
  '\0',
  '\u2215', // division slash
  '\uff0f', // fullwidth solidus
  '\uff3c', // fullwidth reverse solidus
  '\u2024\u2024', // one-dot leaders
  '\uff0e\uff0e', // fullwidth full stops
  '%2e%2e',
  '%2f',
  'C:',
  'c:\\',
  '\\\\?\\',
  ' ',
  '\t',
  '\n',
  '\u202e', // right-to-left override
  '\u200b', // zero-width space
  '\ud800', // lone surrogate
  'x-ipe-docs',
  'ideas',
  'uiux-references',
  'outside',
  'a'.repeat(120),
  '018. Feature-UIUX Reference',
];

/** Valid-but-odd names created as real idea folders, so a save into them succeeds. */
const ODD_IDEAS = ['a\u2215b', '\uff0e\uff0e', '\u2024\u2024', '..a', 'a..', '\u202eevil', '%2e%2e%2f'];

describe('hostile idea_folder values', () => {
  it('never write outside <ws>/x-ipe-docs/ideas/<idea>/uiux-references/', async () => {
    for (const idea of ODD_IDEAS) fs.mkdirSync(path.join(ws.ideasDir, idea), { recursive: true });
    const hostileName = fc.oneof(
      fc
        .array(fc.constantFrom(...HOSTILE_PARTS), { minLength: 1, maxLength: 6 })
        .map((parts) => parts.join('')),
      fc.constantFrom(...ODD_IDEAS),
      fc.string({ minLength: 250, maxLength: 300 }),
    );
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(validData(IDEAS), hostileName, async (base, idea) => {
        const data = { ...asWire(base), idea_folder: idea };
        const before = hashTree(ws.root);
        let ok = false;
        try {
          await saveReference({ workspace: ws.workspace, data });
          ok = true;
        } catch (err) {
          if (!(err instanceof XipeError)) throw err;
          expect(['VALIDATION_ERROR', 'IDEA_NOT_FOUND'], `${JSON.stringify(idea)}: ${err.message}`).toContain(
            err.code,
          );
          if (err.code === 'VALIDATION_ERROR') expect(issueFields(err).join(' ')).toContain('idea_folder');
          if (err.code === 'IDEA_NOT_FOUND')
            expect(err.message.startsWith(`Idea folder not found: ${idea}. Looked in `)).toBe(true);
        }
        const code = ok ? 'saved' : 'refused';
        outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        const diff = changed(before, hashTree(ws.root));
        if (!ok) {
          expect(diff, JSON.stringify(idea)).toEqual([]);
          return;
        }
        expect(ideaFolderProblem(idea)).toBeNull();
        expect(fs.statSync(path.join(ws.ideasDir, idea)).isDirectory()).toBe(true);
        const allowed = path.join('ws', 'x-ipe-docs', 'ideas', idea, 'uiux-references');
        for (const line of diff) {
          const rel = line.split('\t')[1] ?? '';
          expect(
            rel === allowed || rel.startsWith(`${allowed}/`),
            `${JSON.stringify(idea)} wrote ${rel}`,
          ).toBe(true);
        }
        expect(diff.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The property must have exercised both sides.
    expect(outcomes.get('saved') ?? 0).toBeGreaterThan(0);
    expect(outcomes.get('refused') ?? 0).toBeGreaterThan(0);
  });
});
