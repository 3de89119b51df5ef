// The platform's floor for `inject_script`, measured in the same browser as ours: a bare extension
// (extension/sw.js) and a bare native host (host.js) that do nothing but relay and call
// userScripts.execute. What any extension-relayed injection must pay, whoever writes it:
//
// - `echo`: bench → host (Unix socket) → Chrome's native messaging → service worker → back.
// - `execute`: the same, plus one userScripts.execute of the script in the page's MAIN world.
// - `execute_stdio`: the same again behind a bare stdio relay (relay.js), the hop from an agent to
//   any stdio MCP server.
// - `execute_mcp`: the same behind the MCP SDK's own stdio server with one relaying tool
//   (mcp-relay.js), called with the SDK's client: what the protocol adds on both sides.
//
// Nothing here is committed as a key or a build: the extension's key is made per run.
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { lineChannel } from './line-channel.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOST_NAME = 'com.xipe.bench_floor';

/** Chromium's extension id for a manifest `key`: SHA-256 of the key, first 32 hex digits as a-p. */
function extensionId(keyDer) {
  const hex = createHash('sha256').update(keyDer).digest('hex').slice(0, 32);
  return [...hex].map((d) => String.fromCharCode(97 + Number.parseInt(d, 16))).join('');
}

/**
 * Writes the floor extension (with a fresh key, so its id is known) and the host's launcher under
 * `base`. Returns what launchChromium needs (`extension`), the env the host reads its socket path
 * from, and `install(userDataDir)`, which registers the host for that profile.
 */
export function prepareFloor(base) {
  const dir = path.join(base, 'floor-extension');
  fs.mkdirSync(dir, { recursive: true });
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyDer = publicKey.export({ type: 'spki', format: 'der' });
  const manifest = JSON.parse(
    fs.readFileSync(path.join(HERE, 'extension', 'manifest.template.json'), 'utf8'),
  );
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ ...manifest, key: keyDer.toString('base64') }),
  );
  fs.copyFileSync(path.join(HERE, 'extension', 'sw.js'), path.join(dir, 'sw.js'));
  const id = extensionId(keyDer);

  const launcher = path.join(base, 'floor-host.sh');
  fs.writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${path.join(HERE, 'host.js')}"\n`, {
    mode: 0o755,
  });
  const socketPath = path.join(base, 'floor.sock');
  return {
    extension: { dir, id },
    env: { XIPE_BENCH_FLOOR_SOCKET: socketPath },
    socketPath,
    install(userDataDir) {
      const hosts = path.join(userDataDir, 'NativeMessagingHosts');
      fs.mkdirSync(hosts, { recursive: true });
      const hostManifest = {
        name: HOST_NAME,
        description: 'x-ipe bench floor',
        path: launcher,
        type: 'stdio',
        allowed_origins: [`chrome-extension://${id}/`],
      };
      fs.writeFileSync(path.join(hosts, `${HOST_NAME}.json`), JSON.stringify(hostManifest));
    },
  };
}

async function connectWhenListening(socketPath, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await new Promise((resolve, reject) => {
        const socket = net.connect(socketPath, () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the floor host never listened on ${socketPath}: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Connects to the floor host (directly, through a stdio relay and through an MCP server) and
 * returns the four contenders
 * for `inTurns`, each running `code` in the tab at `pageUrl`. The script goes in full on a
 * channel's first call and by its hash after, as ours does.
 */
export async function floorContenders(socketPath, pageUrl, code) {
  const socket = await connectWhenListening(socketPath);
  const direct = lineChannel((line) => socket.write(line), socket);
  const tab = await direct({ op: 'find', url: pageUrl });
  if (typeof tab !== 'number') throw new Error(`the floor extension found no tab at ${pageUrl}`);

  const hash = createHash('sha256').update(code).digest('hex');
  const execute = (channel) => {
    let sent = false;
    return async () => {
      const result = await channel({ op: 'execute', tab, hash, code: sent ? null : code });
      sent = true;
      return result;
    };
  };
  const relay = spawn(process.execPath, [path.join(HERE, 'relay.js')], {
    env: { ...process.env, XIPE_BENCH_FLOOR_SOCKET: socketPath },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const viaRelay = lineChannel((line) => relay.stdin.write(line), relay.stdout);
  const mcp = new Client({ name: 'bench-floor', version: '1.0.0' });
  const mcpTransport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(HERE, 'mcp-relay.js')],
    env: { ...process.env, XIPE_BENCH_FLOOR_SOCKET: socketPath },
    stderr: 'ignore',
  });
  await mcp.connect(mcpTransport);
  const viaMcp = (msg) =>
    mcp.callTool({ name: 'inject', arguments: msg }).then((res) => {
      if (res.structuredContent.error !== null) throw new Error(res.structuredContent.error);
      return res.structuredContent.returnValue;
    });
  return {
    contenders: {
      floor_echo: () => direct({ op: 'echo' }),
      floor_execute: execute(direct),
      floor_execute_stdio: execute(viaRelay),
      floor_execute_mcp: execute(viaMcp),
    },
    mcpPid: mcpTransport.pid,
    close() {
      relay.kill();
      void mcp.close();
      socket.destroy();
    },
  };
}
