// Page set-ups shared by the e2e tests and the bench. Each runs inside the page (pass it to
// puppeteer's page.evaluate), so it must not close over anything.

/**
 * Replaces the page with one exactly five viewports tall under a 60 px sticky magenta header, one
 * coloured section per viewport. Returns the viewport size and the document's scroll height.
 */
export function fiveViewportPage() {
  const vh = document.documentElement.clientHeight;
  document.body.innerHTML = '';
  document.body.style.margin = '0';
  const header = document.createElement('header');
  header.setAttribute('style', 'position:sticky;top:0;height:60px;background:#ff00ff;z-index:5');
  document.body.append(header);
  const colours = ['#e0f2fe', '#dcfce7', '#fef9c3', '#fee2e2', '#ede9fe'];
  colours.forEach((c, i) => {
    const s = document.createElement('section');
    s.setAttribute('style', `height:${i === 0 ? vh - 60 : vh}px;background:${c}`);
    s.textContent = `Section ${i + 1}`;
    document.body.append(s);
  });
  return {
    width: document.documentElement.clientWidth,
    height: vh,
    scroll: document.documentElement.scrollHeight,
  };
}
