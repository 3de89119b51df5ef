// What a user would use instead of our inject_script, measured on the same Chromium in the same run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import WebSocket from 'ws';
import { ROOT } from './harness.js';

function cdpCall(ws, id, method, params) {
  return new Promise((resolve, reject) => {
    const onMessage = (data) => {
      const msg = JSON.parse(data.toString());
      if (msg.id !== id) return;
      ws.off('message', onMessage);
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

const openSocket = (url) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

async function pageTarget(browserURL, urlPrefix) {
  const list = await (await fetch(`${browserURL}/json`)).json();
  const page = list.find((t) => t.type === 'page' && t.url.startsWith(urlPrefix));
  if (!page) throw new Error(`no page target at ${urlPrefix}`);
  return page;
}

/** (b) The original design's per-call path: GET /json, new WebSocket, Runtime.evaluate, close. */
export async function originCdpEvaluate(browserURL, urlPrefix, expression) {
  const page = await pageTarget(browserURL, urlPrefix);
  const ws = await openSocket(page.webSocketDebuggerUrl);
  try {
    const result = await cdpCall(ws, 1, 'Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    return result.result.value;
  } finally {
    ws.close();
  }
}

/** (c) The floor: Runtime.evaluate on an already open CDP session. */
export async function openRawCdp(browserURL, urlPrefix) {
  const page = await pageTarget(browserURL, urlPrefix);
  const ws = await openSocket(page.webSocketDebuggerUrl);
  let id = 0;
  return {
    evaluate: async (expression) => {
      id += 1;
      const result = await cdpCall(ws, id, 'Runtime.evaluate', {
        expression,
        awaitPromise: true,
        returnByValue: true,
      });
      return result.result.value;
    },
    close: () => ws.close(),
  };
}

/** (a) chrome-devtools-mcp's evaluate_script, attached to the same browser with --browserUrl. */
export async function startDevtoolsMcp(browserURL) {
  const bin = path.join(
    ROOT,
    'node_modules',
    'chrome-devtools-mcp',
    'build',
    'src',
    'bin',
    'chrome-devtools-mcp.js',
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--browserUrl', browserURL, '--no-usage-statistics'],
    env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

export { spawn };
