/**
 * Fetching what a captured page names, as the page itself could: the user's cookies go only to the
 * page's own host over its own scheme (a page names any URL it likes; a GET with the user's
 * cookies for another site is a request the page could not make), and never across a redirect.
 * Stricter than the browser's "same site" on purpose: without the public-suffix list, a sibling
 * host cannot be told from another registrant's. Every fetch of page-named URLs goes through here.
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

/**
 * Fetches an http(s) `url` for the page at `pageUrl`. A redirected own-host URL is asked again
 * without cookies; fetch follows http(s) redirects only, whatever the Location says.
 */
export async function fetchAsPage(
  url: string,
  pageUrl: string | null | undefined,
  init: { cache?: RequestCache; signal?: AbortSignal } = {},
): Promise<Response> {
  if (!/^https?:/i.test(url)) throw new Error('not an http(s) URL');
  const withCookies = mayCarryCookies(url, pageUrl);
  let response = await fetch(url, {
    ...init,
    credentials: withCookies ? 'include' : 'omit',
    redirect: withCookies ? 'manual' : 'follow',
  });
  if (response.type === 'opaqueredirect')
    response = await fetch(url, { ...init, credentials: 'omit', redirect: 'follow' });
  if (!/^https?:/i.test(response.url || url)) throw new Error('redirected to a URL that is not http(s)');
  return response;
}
