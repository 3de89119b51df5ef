// CPU time per process, from /proc (Linux only): which process pays for a call. Read around a
// run of calls, so a process's share per call is its (utime + stime) delta / calls. The kernel
// counts in 10 ms clock ticks, so a run of n calls resolves about 10/n ms.
import fs from 'node:fs';

const TICK_MS = 10;

function stat(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's closing parenthesis: state is [0], ppid [1], utime [11], stime [12].
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** The pids under `roots` (themselves included, each once), read once. */
function descendants(roots) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(stat(name)[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop();
    if (out.has(pid)) continue;
    out.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...out];
}

/** A process's role from its command line: Chromium's process types, our processes, the floor's. */
function role(pid, names) {
  if (names.has(pid)) return names.get(pid);
  const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  if (cmd.includes('floor/relay.js')) return 'floor relay';
  if (cmd.includes('floor/host.js')) return 'host';
  if (cmd.includes('--type=renderer'))
    return cmd.includes('--extension-process') ? 'extension renderer' : 'page renderer';
  const type = /--type=(\S+)/.exec(cmd);
  if (type) return type[1];
  // The only Node process the browser starts for us: the native host, under its launcher.
  if (/\bnode\b/.test(cmd)) return 'host';
  return 'browser';
}

/**
 * Watches the processes under `roots` (pids) plus `named` ({pid: role}); `read()` returns CPU ms
 * per role so far. Null where /proc is missing (not Linux): the bench then reports no CPU split.
 */
export function cpuByRole(roots, named = {}) {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const names = new Map(Object.entries(named).map(([pid, name]) => [Number(pid), name]));
  const pids = descendants([...roots, ...names.keys()]).map((pid) => {
    try {
      return [pid, role(pid, names)];
    } catch {
      return [pid, null];
    }
  });
  return {
    read() {
      const out = {};
      for (const [pid, name] of pids) {
        if (name === null) continue;
        try {
          const fields = stat(pid);
          out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS;
        } catch {
          // Exited: its time is no longer counted, in either reading.
        }
      }
      return out;
    },
  };
}

/**
 * For each contender, wall and CPU ms per call (CPU by role): `calls` calls of one back to back
 * (after ten untimed), then of the next. Null without /proc.
 */
export async function cpuPerCall(cpu, contenders, calls) {
  if (cpu === null) return null;
  const out = {};
  for (const [name, run] of Object.entries(contenders)) {
    for (let i = 0; i < 10; i += 1) await run();
    const before = cpu.read();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await run();
    const wallMs = (performance.now() - started) / calls;
    const after = cpu.read();
    const perRole = Object.entries(after)
      .map(([role, ms]) => [role, Math.round(((ms - (before[role] ?? 0)) / calls) * 100) / 100])
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]);
    out[name] = { wall_ms: Math.round(wallMs * 100) / 100, cpu_ms: Object.fromEntries(perRole) };
  }
  return out;
}
