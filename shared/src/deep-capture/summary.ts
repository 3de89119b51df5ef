import { escapeMarkdown as md } from '../markdown.js';
import { areaTokensOf } from './area-tokens.js';
import type { ReferencedArea, ReferencedElements } from './referenced-elements.js';

/**
 * `page-element-references/summarized-uiux-reference.md`: one short file an agent can read
 * instead of the JSON — per area its instruction, where it came from, the clone to open, its
 * colours with roles, type styles, spacing, radii, shadows and files. Each area's section is kept
 * under SUMMARY_AREA_LIMIT bytes (lists are cut, never the headings). Text that comes from the page
 * (its URL, font families and descriptors, tag names) is escaped (`md`): it shows as text, never as
 * a link, an image or HTML.
 */

export const SUMMARY_FILE = 'summarized-uiux-reference.md';
export const SUMMARY_AREA_LIMIT = 8 * 1024;

function list(items: string[], max: number): string {
  const shown = items.slice(0, max).join(' · ');
  return items.length > max ? `${shown} · … (${items.length - max} more)` : shown;
}

function areaSection(area: ReferencedArea): string {
  const box = area.selected_area_bounding_box;
  const clone = (area as { clone?: { structure_html?: string; styles_css?: string } }).clone;
  const lines = [
    `## ${area.area_id}${area.instruction.trim() !== '' ? ` — ${area.instruction.trim().split('\n')[0]}` : ''}`,
    '',
  ];
  if (area.instruction.includes('\n'))
    lines.push(
      ...area.instruction
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => `> ${l}`),
      '',
    );
  const source = (area as { source_url?: unknown }).source_url;
  const from = typeof source === 'string' ? ` of ${md(source)}` : '';
  const where = box === null ? 'size not given' : `${box.width}×${box.height} CSS px at (${box.x}, ${box.y})`;
  const shot = area.screenshot === null ? '' : `; screenshot \`${area.screenshot}\``;
  lines.push(`- Area: ${where}${from}${shot}`);
  if (clone?.structure_html !== undefined) {
    lines.push(`- Clone (opens offline): \`${clone.structure_html}\` + \`${clone.styles_css ?? ''}\``);
  }
  const roots = area.elements.filter((e) =>
    String(e.relationships_to_other_elements ?? '').startsWith('area root'),
  );
  lines.push(
    `- Elements: ${area.elements.length}${roots[0] !== undefined ? `, root \`${roots[0].element_name}\` (${md(roots[0].element_details.tag)})` : ''}`,
  );
  // Areas an agent saved name their elements and say what each is for.
  const purposes = area.elements.filter((e) => typeof e.purpose_of_the_element === 'string');
  if (purposes.length > 0)
    lines.push(
      `- Purposes: ${list(
        purposes.map((e) => `${e.element_name}: ${String(e.purpose_of_the_element).split('\n')[0]}`),
        12,
      )}`,
    );
  const tokens = areaTokensOf(area);
  if (tokens !== null) {
    lines.push(
      `- Colours: ${list(
        tokens.colors.map(
          (c) => `${c.hex}${c.role !== null ? ` ${c.role}` : ''} (${c.uses.join('/')} ×${c.count})`,
        ),
        12,
      )}`,
    );
    if (tokens.typography.length > 0) {
      lines.push(
        `- Type: ${list(
          tokens.typography.map((t) => `${md(t.family)} ${t.size}/${t.line_height} ${t.weight} ×${t.count}`),
          8,
        )}`,
      );
    }
    if (tokens.spacing.length > 0)
      lines.push(
        `- Spacing: ${list(
          tokens.spacing.map((v) => v.value),
          16,
        )}`,
      );
    if (tokens.radii.length > 0)
      lines.push(
        `- Radii: ${list(
          tokens.radii.map((v) => v.value),
          8,
        )}`,
      );
    if (tokens.shadows.length > 0)
      lines.push(
        `- Shadows: ${list(
          tokens.shadows.map((v) => `\`${v.value}\``),
          4,
        )}`,
      );
  }
  const fonts = (
    area as { fonts?: { family: string; weight: string; style: string; local_path: string | null }[] }
  ).fonts;
  if (Array.isArray(fonts) && fonts.length > 0) {
    lines.push(
      `- Fonts: ${list(
        fonts.map(
          (f) =>
            `${md(f.family)} ${md(f.weight)} ${md(f.style)}${f.local_path !== null ? ` → \`${f.local_path}\`` : ''}`,
        ),
        8,
      )}`,
    );
  }
  const images = new Set<string>();
  for (const e of area.elements)
    for (const r of e.element_details.resources)
      if (r.type !== 'font' && r.local_path !== null) images.add(r.local_path);
  if (images.size > 0)
    lines.push(
      `- Images: ${list(
        [...images].map((p) => `\`${p}\``),
        10,
      )}`,
    );
  let text = `${lines.join('\n')}\n`;
  if (new TextEncoder().encode(text).length > SUMMARY_AREA_LIMIT) {
    text = `${text.slice(0, SUMMARY_AREA_LIMIT - 40)}\n- … (cut at ${SUMMARY_AREA_LIMIT / 1024} KB)\n`;
  }
  return text;
}

export function renderSummary(ideaFolder: string, file: ReferencedElements): string {
  const head = [
    `# UI/UX references: ${ideaFolder}`,
    '',
    `Updated ${file.timestamp}. Full data: \`referenced-elements.json\` (3.0); ` +
      'each clone renders its area offline (open the HTML file; the styles have one rule per element).',
    '',
  ].join('\n');
  return `${head}\n${file.areas.map(areaSection).join('\n')}`;
}
