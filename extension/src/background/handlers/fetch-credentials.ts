/**
 * Which fetches of a captured page's resources may carry the user's cookies: only those to the
 * page's own host over its own scheme (a page names any URL it likes; a GET with the user's cookies
 * for another site is a request the page itself could not make). Stricter than the browser's
 * "same site" on purpose: without the public-suffix list, a sibling host cannot be told from
 * another registrant's.
 */
export function mayCarryCookies(url: string, pageUrl: string | null | undefined): boolean {
  if (pageUrl === null || pageUrl === undefined) return false;
  try {
    const target = new URL(url);
    const page = new URL(pageUrl);
    return (
      /^https?:$/.test(target.protocol) && target.protocol === page.protocol && target.host === page.host
    );
  } catch {
    return false;
  }
}
