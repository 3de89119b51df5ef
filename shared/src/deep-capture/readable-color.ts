function hex2(n: number): string {
  return Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');
}

/** `rgb(37, 99, 235)` → `#2563eb`; with alpha < 1 the rgba() form is kept (more readable). */
export function readableColor(rgb: string): string {
  const parts = /^rgba?\(([^()]*)\)$/
    .exec(rgb)?.[1]
    ?.split(/[\s,/]+/)
    .filter((p) => p !== '');
  if (parts === undefined || parts.length < 3) return rgb;
  const [r, g, b, a] = parts.map((p) => Number.parseFloat(p));
  if (r === undefined || g === undefined || b === undefined) return rgb;
  if (a !== undefined && a < 1) return rgb;
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}
