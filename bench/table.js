// `node bench/table.js [report.json] [--readme=PATH]`: writes the results table of bench/README.md
// (or PATH) from a report that `npm run bench` wrote (default bench/report.json), between the
// table markers, so the numbers in the README are always a run's own and never typed by hand.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const README = path.join(BENCH, 'README.md');
const BEGIN = '<!-- bench-table:begin (written by node bench/table.js; do not edit) -->';
const END = '<!-- bench-table:end -->';

const cell = (value) => String(value ?? '').replaceAll('|', '\\|');

/** A number as the table shows it: three significant digits are plenty for a p50. */
function num(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return Number(value.toPrecision(3)).toString();
}

/** The Markdown table of `report`'s entries, with a line that says where it comes from. */
export function renderTable(report) {
  const rows = report.entries.map((e) => [
    `\`${e.name}\``,
    e.p50 === null ? '' : `${num(e.p50)} ${e.unit}`,
    e.p95 === null ? '' : num(e.p95),
    e.n,
    e.baseline ? `${e.baseline.name}: ${num(e.baseline.p50)}` : '',
    num(e.ratio_p50),
    e.target ?? '',
    e.status ?? '',
  ]);
  const header = ['entry', 'p50', 'p95', 'n', 'baseline p50', 'ratio', 'target', 'status'];
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
  const { cpus, node } = report.machine ?? {};
  const source =
    `From \`bench/report.json\` of ${report.generated_at} (${cpus} cores, Node ${node}` +
    `${report.quick ? ', --quick' : ''}; ${report.entries.length} entries).`;
  return [source, '', line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `readme` with the text between the markers replaced by `table`. */
export function withTable(readme, table) {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end < start)
    throw new Error(`the README has no table markers: add a line "${BEGIN}" and a line "${END}"`);
  return `${readme.slice(0, start + BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const readme = path.resolve(
    args.find((a) => a.startsWith('--readme='))?.slice('--readme='.length) ?? README,
  );
  const reportPath = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(BENCH, 'report.json'));
  if (!fs.existsSync(reportPath)) {
    process.stderr.write(`No report at ${reportPath}: run \`npm run bench\` first (it writes one).\n`);
    process.exit(1);
  }
  const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
  fs.writeFileSync(readme, withTable(fs.readFileSync(readme, 'utf8'), renderTable(report)));
  process.stdout.write(`${readme}: table of ${report.entries.length} entries from ${reportPath}\n`);
}
