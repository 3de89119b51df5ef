/** Width of each half in the picture, CSS px. */
const HALF = 640;

/**
 * The docs' pictures: the browser's screenshot of an area on the left, its clone on the right, each
 * scaled to HALF px wide under a caption, written as one PNG to `out`.
 */
export async function writeSideBySide(browser, { rect, left, right, out }) {
  const height = Math.ceil((rect.height * HALF) / rect.width);
  const page = await browser.newPage();
  await page.setViewport({ width: HALF * 2 + 12, height: height + 28, deviceScaleFactor: 1 });
  const half = ({ caption, png }) =>
    `<div><p>${caption}</p><img src="data:image/png;base64,${png.toString('base64')}"></div>`;
  await page.setContent(`<!doctype html><style>
      body { margin: 0; display: grid; grid-template-columns: ${HALF}px ${HALF}px; gap: 12px;
             font: 600 15px/28px sans-serif; color: #222; background: #fff; }
      p { margin: 0 4px; white-space: nowrap; overflow: hidden; }
      img { display: block; width: ${HALF}px; height: ${height}px; }
    </style>${half(left)}${half(right)}`);
  await page.evaluate(() => Promise.all(Array.from(document.images, (i) => i.decode())));
  await page.screenshot({ path: out, fullPage: true });
  await page.close();
}
