/**
 * A listener that ignores events the page made up (`dispatchEvent`, `el.click()`): only the
 * user's own input may pick, confirm or save. `isTrusted` is set by the browser and cannot be
 * forged from the page (it is an unforgeable own property of every event).
 */
export function trusted<E extends Event>(handler: (event: E) => void): (event: E) => void {
  return (event) => {
    if (event.isTrusted) handler(event);
  };
}
