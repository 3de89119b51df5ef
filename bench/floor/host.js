// The floor's native host: relays newline-delimited JSON from a Unix socket to Chrome's native
// messaging frames (4-byte length, then the bytes) and back, without parsing anything. Clients
// take turns, one request at a time, so a reply goes to the client that sent the last request.
import fs from 'node:fs';
import net from 'node:net';

const socketPath = process.env.XIPE_BENCH_FLOOR_SOCKET;
if (!socketPath) process.exit(2);
let client = null;
let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  while (pending.length >= 4) {
    const size = pending.readUInt32LE(0);
    if (pending.length < 4 + size) break;
    const frame = pending.subarray(4, 4 + size);
    pending = pending.subarray(4 + size);
    client?.write(Buffer.concat([frame, Buffer.from('\n')]));
  }
});
process.stdin.on('end', () => process.exit(0));

fs.rmSync(socketPath, { force: true });
net
  .createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      client = socket;
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const body = Buffer.from(buffered.slice(0, nl), 'utf8');
        buffered = buffered.slice(nl + 1);
        const head = Buffer.alloc(4);
        head.writeUInt32LE(body.length, 0);
        process.stdout.write(Buffer.concat([head, body]));
      }
    });
  })
  .listen(socketPath);
