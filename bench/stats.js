// Small statistics and reporting helpers for `npm run bench`.

/** Percentile by nearest rank on a sorted copy. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const round = (v) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);

/** One report entry: name, unit, p50, p95, n, and optionally a baseline measured in the same run. */
export function entry(name, unit, samples, extra = {}) {
  return {
    name,
    unit,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    n: samples.length,
    ...extra,
  };
}

export function withBaseline(ours, baselineName, baselineSamples) {
  const p50 = round(percentile(baselineSamples, 50));
  const p95 = round(percentile(baselineSamples, 95));
  return { ...ours, baseline: { name: baselineName, p50, p95 }, ratio_p50: round(ours.p50 / p50) };
}

export async function timeIt(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Runs fn n times (after warmup runs) and returns the durations in ms. */
export async function sample(n, fn, { warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i += 1) await fn(i);
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const { ms } = await timeIt(() => fn(i));
    out.push(ms);
  }
  return out;
}

export function printTable(entries, out = process.stdout) {
  const rows = entries.map((e) => [
    e.name,
    e.unit,
    String(e.p50),
    String(e.p95),
    String(e.n),
    e.baseline ? `${e.baseline.name} p50=${e.baseline.p50}` : (e.target ?? ''),
    e.ratio_p50 !== undefined ? String(e.ratio_p50) : '',
    e.status ?? '',
  ]);
  const header = ['name', 'unit', 'p50', 'p95', 'n', 'baseline / target', 'ratio', 'status'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  out.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of rows) out.write(`${line(r)}\n`);
  const split = ({ wall_ms, cpu_ms }) =>
    `${wall_ms} ms a call; CPU ms a call: ${Object.entries(cpu_ms)
      .map(([role, ms]) => `${role} ${ms}`)
      .join(', ')}`;
  for (const e of entries.filter((x) => x.layers !== undefined)) {
    out.write(`\n${e.name}, by layer (p50 ms, ours / floor):\n`);
    for (const [layer, { ours, floor }] of Object.entries(e.layers))
      out.write(`  ${layer}: ${ours ?? '—'} / ${floor}\n`);
  }
  for (const e of entries.filter((x) => x.cpu_split !== undefined)) {
    out.write(`\n${e.name}, by process (calls back to back):\n`);
    for (const [who, split1] of Object.entries(e.cpu_split)) out.write(`  ${who}: ${split(split1)}\n`);
  }
}
