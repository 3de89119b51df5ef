import { expect } from 'vitest';
import { b64, IDEA, makePng } from './store-fixtures.js';

/**
 * Reference data in the shapes the original X-IPE producers emit (its test factory, a session its
 * v1 toolbar saved from a real site, its v2 theme mode, its mockup agents' 3.0 saves): null-valued
 * optional fields, colour roles (including "" for "not assigned"), elements carrying html_css /
 * instruction / agent_analysis, top-level static_resources and mode. Written from the original's
 * documented shapes, not copied; each must save unchanged (issue #11).
 */

export interface OriginalShape {
  name: string;
  data: Record<string, unknown>;
}

export function originalShapes(idea = IDEA): OriginalShape[] {
  const png = b64(makePng(2, 2, 42));
  return [
    {
      // The original's test factory: a canonical element with extracted_assets null and two
      // base64 screenshots.
      name: 'factory element with extracted_assets null',
      data: {
        version: '1.0',
        source_url: 'https://example.com/page',
        timestamp: '2026-02-13T09:00:00Z',
        idea_folder: idea,
        colors: [
          {
            id: 'color-001',
            hex: '#1A73E8',
            rgb: '26, 115, 232',
            hsl: '217, 80%, 51%',
            source_selector: 'header .logo',
            context: 'Brand primary',
          },
        ],
        elements: [
          {
            id: 'elem-001',
            selector: 'body > main > .cta-button',
            tag: 'button',
            bounding_box: { x: 120, y: 340, width: 200, height: 48 },
            screenshots: { full_page: png, element_crop: png },
            comment: 'Primary CTA button',
            extracted_assets: null,
          },
        ],
        design_tokens: { colors: { primary: '#1A73E8' }, typography: { heading_font: 'Google Sans' } },
      },
    },
    {
      // A session saved from a real site by the v1 toolbar: every optional value it had no data
      // for is null, including whole sections.
      name: 'real-site session with null sections, comment and auth_url',
      data: {
        version: '1.0',
        source_url: 'https://www.example.org/pricing?plan=team',
        auth_url: null,
        timestamp: '2026-02-14T16:42:07.318Z',
        idea_folder: idea,
        session_id: null,
        colors: [
          {
            id: 'color-001',
            hex: '#0f172a',
            rgb: '15, 23, 42',
            hsl: '222, 47%, 11%',
            source_selector: 'body > header.site-header',
            context: null,
          },
        ],
        elements: [
          {
            id: 'elem-001',
            selector: 'body > main > section.hero',
            tag: 'section',
            bounding_box: { x: 0, y: 72, width: 1280, height: 540.5 },
            screenshots: { full_page: null, element_crop: 'screenshots/elem-001-crop.png' },
            comment: null,
            extracted_assets: null,
          },
        ],
        design_tokens: null,
      },
    },
    {
      // The v2 theme mode ("Catch Design Theme"): colours with roles, "" for an unassigned one, a
      // custom role, empty contexts, an unknown selector, and the mode flag at the top level.
      name: '2.0 theme save with roles',
      data: {
        version: '2.0',
        source_url: 'https://brand.example.com/',
        timestamp: '2026-02-15T08:01:00+01:00',
        idea_folder: idea,
        mode: 'theme',
        colors: [
          {
            id: 'color-001',
            hex: '#4f46e5',
            rgb: '79, 70, 229',
            hsl: '243, 75%, 59%',
            source_selector: 'body > nav',
            role: 'primary',
            context: '',
          },
          {
            id: 'color-002',
            hex: '#a855f7',
            rgb: '168, 85, 247',
            hsl: '271, 91%, 65%',
            source_selector: 'unknown',
            role: 'accent',
            context: '',
          },
          {
            id: 'color-003',
            hex: '#f8fafc',
            rgb: '248, 250, 252',
            hsl: '210, 40%, 98%',
            source_selector: 'body',
            role: 'surface-glow',
            context: '',
          },
          {
            id: 'color-004',
            hex: '#111827',
            rgb: '17, 24, 39',
            hsl: '221, 39%, 11%',
            source_selector: 'body > p',
            role: '',
            context: '',
          },
        ],
      },
    },
    {
      // An agent's mockup save: elements carrying html_css (computed styles, outer_html null,
      // discovered elements), an instruction and agent_analysis; static_resources at the top.
      name: '3.0 mockup save with html_css and instruction',
      data: {
        version: '3.0',
        source_url: 'https://shop.example.com/product/42',
        timestamp: '2026-02-16T11:20:00Z',
        idea_folder: idea,
        auth_url: null,
        elements: [
          {
            id: 'elem-001',
            selector: 'body > main > div.product-card',
            tag: 'div',
            bounding_box: { x: 24, y: 180, width: 360, height: 480 },
            screenshots: null,
            comment: null,
            extracted_assets: null,
            instruction: 'Keep the hover lift and the price badge',
            agent_analysis: null,
            html_css: {
              level: 'minimal',
              outer_html: null,
              computed_styles: { display: 'flex', 'border-radius': '12px', 'box-shadow': 'none' },
              discovered_elements: [
                {
                  element_name: 'price-badge',
                  purpose_of_the_element: 'Shows the discounted price',
                  relationships_to_other_elements: [],
                  element_details: {
                    tag: 'span',
                    text_content: '€19',
                    styles: { color: '#fff' },
                    resources: [],
                  },
                },
              ],
            },
          },
        ],
        static_resources: [
          {
            type: 'font',
            src: 'https://fonts.example.com/inter.woff2',
            local_path: 'resources/area-1-font-1.woff2',
            usage: 'Body text',
          },
        ],
      },
    },
    {
      // The factory's "only colours" case: the other sections sent as null.
      name: 'only colours, other sections null',
      data: {
        version: '1.0',
        source_url: 'https://example.com/page',
        timestamp: '2026-02-13T09:00:00Z',
        idea_folder: idea,
        colors: [{ id: 'color-001', hex: '#FF0000' }],
        elements: null,
        design_tokens: null,
      },
    },
  ];
}

/**
 * What the session file must hold for `sent`: the same data, with each `base64:` screenshot
 * replaced by the file the save wrote for it (`written`: the result's workspace-relative paths, in
 * element order, full_page before element_crop), plus the store's session_number and saved_at.
 */
export function expectedSession(
  sent: Record<string, unknown>,
  written: readonly string[],
  sessionNumber: number,
): Record<string, unknown> {
  const files = written.map((p) => `screenshots/${p.slice(p.lastIndexOf('/') + 1)}`);
  const copy = structuredClone(sent);
  const elements = Array.isArray(copy.elements) ? (copy.elements as Array<Record<string, unknown>>) : [];
  for (const element of elements) {
    const shots = element.screenshots as Record<string, unknown> | null | undefined;
    if (shots === null || shots === undefined) continue;
    for (const kind of ['full_page', 'element_crop']) {
      const value = shots[kind];
      if (typeof value === 'string' && value.startsWith('base64:')) shots[kind] = files.shift();
    }
  }
  return { ...copy, session_number: sessionNumber, saved_at: expect.any(String) };
}
