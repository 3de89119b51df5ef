/**
 * The toolbar's stylesheet, inside a closed shadow root. `:host` is reset with `all: initial` so
 * nothing the page sets (`* { all: unset }`, inherited fonts, pointer-events tricks) reaches in;
 * the host element itself is pinned with inline !important styles and lives in the top layer.
 */
export const HOST_STYLE = [
  'all: initial',
  'position: fixed',
  'inset: 0',
  'width: 100vw',
  'height: 100vh',
  'max-width: none',
  'max-height: none',
  'margin: 0',
  'padding: 0',
  'border: 0',
  'background: transparent',
  'overflow: visible',
  'display: block',
  'visibility: visible',
  'opacity: 1',
  'pointer-events: none',
  'z-index: 2147483647',
  'transform: none',
  'filter: none',
  'clip-path: none',
  'contain: none',
]
  .map((d) => `${d} !important`)
  .join('; ');

export const CSS = `
:host { all: initial; }
* , *::before, *::after { box-sizing: border-box; }
.root {
  --bg: #ffffff; --bg2: #f4f5f7; --fg: #1c1f24; --fg2: #5d6470; --line: #e3e5e9;
  /* capture-veil.ts SHADOW_REACH is how far --shadow paints past the panel: change both together. */
  --accent: #4f46e5; --accent-fg: #ffffff; --danger: #dc2626; --ok: #15803d; --shadow: 0 12px 32px rgba(15, 23, 42, .18), 0 2px 6px rgba(15, 23, 42, .12);
  font: 12px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  position: fixed; inset: 0; pointer-events: none; -webkit-font-smoothing: antialiased;
}
@media (prefers-color-scheme: dark) {
  .root { --bg: #1d2026; --bg2: #272b33; --fg: #eceef2; --fg2: #a2a9b5; --line: #343944; --accent: #818cf8; --accent-fg: #11131a; }
}
/* opacity, not visibility: the shield must keep catching the pointer, or the page would get :hover while we capture.
   A crop the panel does not overlap hides only the overlays: the designer sees the panel fill. */
.root[data-hidden="all"] { opacity: 0; }
.root[data-hidden] .overlays { opacity: 0; }
button, input, select, textarea { font: inherit; color: inherit; }
.panel {
  position: fixed; top: 16px; right: 16px; width: 320px; max-height: min(calc(100vh - 32px), 75vh); /* panel-place.ts MAX_HEIGHT_SHARE */
  display: flex; flex-direction: column; background: var(--bg); border: 1px solid var(--line); border-radius: 12px;
  box-shadow: var(--shadow); pointer-events: auto; overflow: hidden; user-select: none;
}
.panel.collapsed { width: auto; }
.panel.collapsed .body, .panel.collapsed .modes, .panel.collapsed .options, .panel.collapsed .status, .panel.collapsed .foot { display: none; }
.head { display: flex; align-items: center; gap: 6px; padding: 8px 8px 8px 12px; cursor: grab; border-bottom: 1px solid var(--line); }
.head:active { cursor: grabbing; }
.title { font-weight: 600; flex: 1; white-space: nowrap; }
.badge { background: var(--accent); color: var(--accent-fg); border-radius: 999px; padding: 0 7px; font-size: 11px; font-weight: 600; }
.icon { all: unset; box-sizing: border-box; width: 24px; height: 24px; display: inline-grid; place-items: center; border-radius: 6px; cursor: pointer; color: var(--fg2); }
.icon:hover { background: var(--bg2); color: var(--fg); }
.icon:focus-visible, .mode:focus-visible, .btn:focus-visible, .swatch:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.modes { display: grid; grid-auto-flow: column; grid-auto-columns: 1fr; gap: 4px; padding: 8px; border-bottom: 1px solid var(--line); }
.mode { all: unset; box-sizing: border-box; display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 6px 2px; border-radius: 8px; cursor: pointer; color: var(--fg2); font-size: 11px; }
.mode svg { width: 18px; height: 18px; }
.mode:hover { background: var(--bg2); color: var(--fg); }
.mode[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); }
.options { display: flex; align-items: center; gap: 8px; padding: 6px 8px; border-bottom: 1px solid var(--line); }
.options[hidden] { display: none; }
.options label { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; cursor: pointer; font-weight: 600; }
.options input[type="text"] { flex: 1; min-width: 0; border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; background: var(--bg2); user-select: text; }
.options input[disabled] { opacity: .5; }
.body { overflow: auto; display: flex; flex-direction: column; flex: 1 1 auto; min-height: 0; }
.foot { flex: none; border-top: 1px solid var(--line); border-bottom: none; }
.fold { all: unset; cursor: pointer; flex: 1; }
.fold::after { content: " ▾"; }
.section.folded .fold::after { content: " ▸"; }
.section.folded > :not(h3) { display: none; }
/* Two lines high, its progress bar over the bottom padding: most statuses then change no height, so the list under
   it does not move while the designer reaches for it. Never shrunk (flex: none): a longer message grows the line
   instead of spilling over the list with the bar through its text. */
.status { position: relative; flex: none; padding: 6px 12px 8px; color: var(--fg2); min-height: 2.8em; border-bottom: 1px solid var(--line); }
.status.error { color: var(--danger); }
.status.ok { color: var(--ok); }
.status .link { all: unset; cursor: pointer; color: var(--accent); text-decoration: underline; font-weight: 600; }
.section { padding: 8px 12px; border-bottom: 1px solid var(--line); }
.section h3 { all: unset; display: flex; justify-content: space-between; font-size: 11px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--fg2); margin-bottom: 6px; }
.list { display: flex; flex-direction: column; gap: 6px; }
.item.pending { opacity: .7; }
.empty { color: var(--fg2); font-style: italic; }
.item { display: grid; grid-template-columns: 44px 1fr auto; gap: 8px; align-items: start; padding: 6px; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); }
.thumb { width: 44px; height: 34px; border-radius: 4px; background: var(--bg2) center/contain no-repeat; border: 1px solid var(--line); }
.meta { min-width: 0; }
.meta .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.meta .sel { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 10px; color: var(--fg2); overflow-wrap: anywhere; }
.meta .field { display: block; margin-top: 4px; }
.meta .field .caption { display: block; font-size: 10px; font-weight: 600; color: var(--fg2); text-transform: uppercase; letter-spacing: .03em; }
.zoom { position: fixed; pointer-events: none; border: 1px solid var(--line); border-radius: 6px; background: #fff center/contain no-repeat; box-shadow: var(--shadow); }
.meta .sub { color: var(--fg2); font-size: 11px; }
.meta .deep { color: var(--accent); font-size: 11px; font-weight: 600; }
.meta textarea { width: 100%; margin-top: 2px; min-height: 26px; max-height: 120px; resize: vertical; border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; background: var(--bg2); user-select: text; }
.actions { display: flex; flex-direction: column; gap: 2px; }
.chip { display: inline-flex; align-items: center; gap: 6px; }
.dot { width: 14px; height: 14px; border-radius: 4px; border: 1px solid rgba(0,0,0,.15); display: inline-block; }
select.role { border: 1px solid var(--line); border-radius: 6px; background: var(--bg2); padding: 1px 4px; font-size: 11px; }
.palette { display: grid; grid-template-columns: repeat(8, 1fr); gap: 4px; }
.swatch { all: unset; box-sizing: border-box; aspect-ratio: 1; border-radius: 6px; border: 1px solid rgba(0,0,0,.15); cursor: pointer; position: relative; }
.swatch span { position: absolute; right: 1px; bottom: 0; font-size: 9px; padding: 0 2px; border-radius: 3px; background: rgba(255,255,255,.85); color: #111; }
.contrast { font-size: 11px; color: var(--fg2); margin-top: 4px; display: flex; flex-direction: column; gap: 2px; }
.save { display: grid; gap: 6px; }
.save select { width: 100%; border: 1px solid var(--line); border-radius: 6px; background: var(--bg2); padding: 4px 6px; }
.btn { all: unset; box-sizing: border-box; text-align: center; padding: 7px 10px; border-radius: 8px; cursor: pointer; background: var(--accent); color: var(--accent-fg); font-weight: 600; }
.btn[disabled] { opacity: .5; cursor: default; }
.btn.secondary { background: var(--bg2); color: var(--fg); font-weight: 500; }
.row { display: flex; gap: 6px; }
.row > * { flex: 1; }
.kbd { font-size: 10px; color: var(--fg2); }
/* overlays */
/* The capture shutter (capture-veil.ts): one flat colour around the crop while it is captured. */
.mask { position: fixed; inset: 0; pointer-events: none; }
.mask > div { position: fixed; background: #0f172a; }
.shield { position: fixed; inset: 0; pointer-events: auto; cursor: crosshair; background: transparent; }
/* Drawn around the element, not over it: a frame captured while the pointer rests shows the element clean. */
.hl { position: fixed; pointer-events: none; border: 2px solid #4f46e5; border-radius: 3px; box-shadow: 0 0 0 1px rgba(255, 255, 255, .7); transition: all 60ms ease-out; }
.hl.section { border-color: #0ea5e9; background: rgba(14, 165, 233, .10); border-style: dashed; }
.label { position: fixed; pointer-events: none; background: #111827; color: #f9fafb; font: 11px/14px ui-monospace, SFMono-Regular, Menlo, monospace; height: 20px; padding: 3px 6px; border-radius: 4px; white-space: nowrap; max-width: 60vw; overflow: hidden; text-overflow: ellipsis; }
.label b { color: #a5b4fc; font-weight: 600; }
.area { position: fixed; border: 2px solid #f59e0b; background: rgba(245, 158, 11, .10); pointer-events: auto; cursor: move; }
.handle { position: absolute; width: 10px; height: 10px; background: #fff; border: 2px solid #f59e0b; border-radius: 2px; }
.handle[data-h="nw"] { left: -6px; top: -6px; cursor: nwse-resize; } .handle[data-h="ne"] { right: -6px; top: -6px; cursor: nesw-resize; }
.handle[data-h="sw"] { left: -6px; bottom: -6px; cursor: nesw-resize; } .handle[data-h="se"] { right: -6px; bottom: -6px; cursor: nwse-resize; }
.handle[data-h="n"] { left: calc(50% - 5px); top: -6px; cursor: ns-resize; } .handle[data-h="s"] { left: calc(50% - 5px); bottom: -6px; cursor: ns-resize; }
.handle[data-h="w"] { top: calc(50% - 5px); left: -6px; cursor: ew-resize; } .handle[data-h="e"] { top: calc(50% - 5px); right: -6px; cursor: ew-resize; }
.area-bar { position: absolute; left: 0; top: calc(100% + 6px); display: flex; gap: 4px; }
.area-bar .btn { padding: 4px 8px; font-size: 11px; }
.flash { position: fixed; pointer-events: none; border: 3px solid #f43f5e; border-radius: 4px; animation: flash 900ms ease-out forwards; }
@keyframes flash { 0% { opacity: 1; box-shadow: 0 0 0 6px rgba(244, 63, 94, .35); } 100% { opacity: 0; box-shadow: 0 0 0 0 rgba(244, 63, 94, 0); } }
.progress { position: absolute; left: 12px; right: 12px; bottom: 2px; height: 3px; background: var(--bg2); border-radius: 2px; overflow: hidden; }
.progress > div { height: 100%; background: var(--accent); width: 0; transition: width 120ms; }
.verify { display: grid; gap: 6px; }
.verify select { min-width: 0; border: 1px solid var(--line); border-radius: 6px; background: var(--bg2); padding: 4px 6px; }
.verify .btn[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); }
.verify-controls label { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }
.verify-controls input[type="range"] { min-width: 0; flex: 1; }
.verify-where-row { color: var(--fg2); font-size: 11px; }
.verify-results ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 10px; font-variant-numeric: tabular-nums; }
.verify-results ol { margin: 4px 0 0; padding-left: 18px; }
.verify-report { color: var(--fg2); font-size: 11px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
`;
