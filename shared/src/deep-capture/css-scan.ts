/**
 * The one reader of CSS text's structure, for the engine (selectors and declaration blocks of the
 * page's rules) and the clone (checking what it writes): a backslash escapes the next character,
 * quotes hold anything, `(` and `[` nest. Nothing is validated beyond that: the browser already
 * parsed what the engine reads, and the clone only needs to know a value cannot leave its rule.
 */

export interface ScanEnd {
  /** Brackets still open at the end. */
  depth: number;
  /** A quote was still open at the end. */
  quoted: boolean;
  /** A bracket was closed that was never opened (the depth stays at 0). */
  underflow: boolean;
}

/**
 * Calls `visit` for each character with the nesting depth before it and whether it is literal
 * (escaped, a quote, or inside quotes: never structure). `visit` returning true stops the scan.
 */
export function scanCss(
  text: string,
  visit: (ch: string, index: number, depth: number, literal: boolean) => boolean | undefined,
): ScanEnd {
  let depth = 0;
  let quote: string | null = null;
  let underflow = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\') {
      if (visit(ch, i, depth, true) === true) break;
      i++;
      if (i < text.length && visit(text[i] ?? '', i, depth, true) === true) break;
      continue;
    }
    const literal = quote !== null || ch === '"' || ch === "'";
    if (visit(ch, i, depth, literal) === true) break;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') {
      if (depth === 0) underflow = true;
      else depth--;
    }
  }
  return { depth, quoted: quote !== null, underflow };
}

/** Splits at `sep` characters outside brackets and quotes; parts trimmed, empty ones left out. */
export function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanCss(text, (ch, i, depth, literal) => {
    if (!literal && depth === 0 && ch === sep) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    return undefined;
  });
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Whether `value` is one balanced value that cannot end its declaration or its rule. */
export function staysInDeclaration(value: string): boolean {
  let escapes = false;
  const end = scanCss(value, (ch, _i, _depth, literal) => {
    escapes = !literal && (ch === '{' || ch === '}' || ch === ';');
    return escapes;
  });
  return !escapes && !end.quoted && !end.underflow && end.depth === 0;
}
