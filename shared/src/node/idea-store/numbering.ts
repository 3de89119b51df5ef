/**
 * Session and screenshot numbering (docs/architecture.md, The idea store): the number is max existing + 1, found by scanning
 * the folder — never taken from the request's `session_id`. Gaps are kept (001, 003 → 004).
 * Numbers are zero-padded to 3 digits and simply grow past 999 (1000 stays 4 digits).
 */

export const SESSION_FILE_PATTERN = /^ref-session-(\d{3,})\.json$/;
export const FULL_PAGE_PATTERN = /^full-page-(\d{3,})\.png$/;
export const ELEMENT_CROP_PATTERN = /^elem-(\d{3,})-crop\.png$/;

export function padNumber(n: number): string {
  return String(n).padStart(3, '0');
}

export function sessionFileName(n: number): string {
  return `ref-session-${padNumber(n)}.json`;
}

export function fullPageFileName(n: number): string {
  return `full-page-${padNumber(n)}.png`;
}

export function elementCropFileName(n: number): string {
  return `elem-${padNumber(n)}-crop.png`;
}

/** Numbers of the names matching `pattern`, in ascending order. */
export function numbersIn(names: Iterable<string>, pattern: RegExp): number[] {
  const numbers: number[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (m?.[1] !== undefined) {
      const n = Number.parseInt(m[1], 10);
      if (Number.isSafeInteger(n) && n > 0) numbers.push(n);
    }
  }
  return numbers.sort((a, b) => a - b);
}

/** max + 1 over the names matching `pattern` (1 when there are none). */
export function nextNumber(names: Iterable<string>, pattern: RegExp): number {
  let max = 0;
  for (const n of numbersIn(names, pattern)) if (n > max) max = n;
  return max + 1;
}
