import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { QueueEntry } from '#shared/commands/capture-queue.js';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import { PACKAGE_VERSION } from '#shared/node/version.js';
import { auditLogPath } from '../audit-log.js';
import type { BridgeReport } from '../bridge-client/bridge.js';
import { defineTool } from './define-tool.js';

export const ALLOW_USER_SCRIPTS_HINT =
  "open chrome://extensions → X-IPE UI/UX Reference → Details → enable 'Allow User Scripts'";
export const NO_HOST_HINT =
  'open Chrome/Chromium with the X-IPE extension (or run `x-ipe-uiux start`), then check `x-ipe-uiux doctor`';

export const bridgeStatusTool = defineTool({
  name: 'bridge_status',
  description:
    'Report every link (native hosts, browsers and extension versions, protocol, user scripts allowed, workspace, ' +
    'home, log files) with a summary of what works and what to do next. Never fails.',
  inputSchema: z.strictObject({}),
  annotations: { title: 'Bridge status', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const report = await ctx.bridge.status({ signal: ctx.signal });
    const { summary, nextSteps } = summarise(report);
    return {
      summary,
      next_steps: nextSteps,
      mcp: {
        name: 'x-ipe-app-and-agent-interaction',
        version: PACKAGE_VERSION,
        protocol: PROTOCOL_VERSION,
        pid: process.pid,
      },
      workspace: {
        path: ctx.workspace,
        has_ideas_folder: fs.existsSync(path.join(ctx.workspace, 'x-ipe-docs', 'ideas')),
      },
      home: report.home,
      runtime_dir: report.runtime_dir,
      runtime_dir_refused: report.runtime_dir_refused,
      token: { file: report.token_file, present: report.token_present },
      hosts: report.hosts,
      queued_events: report.queued_events,
      capture_queue: captureQueue(report),
      log_files: {
        mcp: ctx.logger.file,
        audit: auditLogPath(report.home),
        hosts: report.hosts.flatMap((h) => (h.host !== null ? [h.host.log_file] : [])),
      },
    };
  },
});

/** Every browser's capture queue: running jobs first, then waiting ones, each with its browser. */
export function captureQueue(report: BridgeReport): Array<QueueEntry & { browser_id: string | null }> {
  return report.hosts.flatMap((link) =>
    (link.host?.capture_queue ?? []).map((job) => ({
      ...job,
      browser_id: link.host?.extension?.browser.browser_id ?? null,
    })),
  );
}

function queueLine(jobs: readonly QueueEntry[]): string {
  const running = jobs.filter((j) => j.state === 'running');
  const waiting = jobs.length - running.length;
  const names = running.map((j) => `${j.label} of tab ${j.tab_id}`).join(', ');
  return `, capture queue: ${running.length} running${names ? ` (${names})` : ''}, ${waiting} waiting`;
}

/** One line per fact, then what to do; pure so it is tested on its own. */
export function summarise(report: BridgeReport): { summary: string; nextSteps: string[] } {
  const reachable = report.hosts.filter((h) => h.reachable && h.host !== null);
  const nextSteps: string[] = [];
  const refused = report.runtime_dir_refused;
  if (refused !== null) {
    return {
      summary: `No browser link: the runtime dir was refused, so no host in it was contacted (${refused.message})`,
      nextSteps: [refused.message],
    };
  }
  if (reachable.length === 0) {
    const unreachable = report.hosts.filter((h) => !h.reachable && h.pid_alive);
    const why = unreachable.map((h) => `${h.descriptor_path}: ${h.error?.message ?? 'unreachable'}`);
    nextSteps.push(
      `No native host is reachable in ${report.runtime_dir} (XIPE_UIUX_HOME=${report.home}): ${NO_HOST_HINT}.`,
    );
    if (!report.token_present)
      nextSteps.push(`No token at ${report.token_file}: run \`x-ipe-uiux install\`.`);
    return {
      summary:
        why.length > 0
          ? `No usable browser link. Hosts found but not usable: ${why.join('; ')}`
          : 'No browser is connected: no live native host was found.',
      nextSteps,
    };
  }
  const lines: string[] = [];
  for (const link of reachable) {
    const host = link.host;
    if (host === null) continue;
    const ext = host.extension;
    if (!host.extension_connected || ext === null) {
      lines.push(`host pid ${host.pid}: reachable, but no extension is connected`);
      nextSteps.push(
        `Host pid ${host.pid} has no extension attached: reload the X-IPE extension in that browser (or run \`x-ipe-uiux start\`).`,
      );
      continue;
    }
    lines.push(
      `${ext.browser.browser_id} (${ext.browser.name} ${ext.browser.version}, extension ${ext.version}, host pid ${host.pid}): ` +
        `connected, user scripts ${ext.user_scripts_allowed ? 'allowed' : 'NOT allowed'}` +
        (host.capture_queue !== undefined && host.capture_queue.length > 0
          ? queueLine(host.capture_queue)
          : ''),
    );
    if (!ext.user_scripts_allowed) {
      nextSteps.push(
        `${ext.browser.browser_id}: user scripts are not allowed, so inject_script cannot run on pages whose CSP forbids inline script: ${ALLOW_USER_SCRIPTS_HINT}.`,
      );
    }
    if (host.protocol !== PROTOCOL_VERSION) {
      nextSteps.push(
        `Host pid ${host.pid} speaks protocol ${host.protocol}, this server ${PROTOCOL_VERSION}: update both to the same version.`,
      );
    }
  }
  for (const link of report.hosts.filter((h) => !h.reachable && h.pid_alive)) {
    lines.push(`host pid ${link.pid ?? '?'}: not reachable (${link.error?.code ?? 'unknown'})`);
    if (link.error !== null) nextSteps.push(link.error.message);
  }
  return { summary: lines.join('; '), nextSteps };
}
