/**
 * How `url_contains` picks tabs. The text is looked for in a tab's origin and path only: a page
 * can rewrite its own query and fragment at any time without navigating (`history.replaceState`),
 * so matching them would let it answer to a name meant for another tab. The same page can still
 * rewrite its path within its origin; that is why more than one match is refused, never picked.
 */
export function urlMatches(url: string, needle: string): boolean {
  return originAndPath(url).includes(needle);
}

/** The URL up to its query or fragment (a URL that does not parse is cut at the first `?`/`#`). */
export function originAndPath(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/** At most `max` characters of page-chosen text, quoted as JSON so it cannot pass for ours. */
export function quoteShort(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
