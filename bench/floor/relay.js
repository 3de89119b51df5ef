// An MCP server's least possible work: lines in on stdin go to the floor host's socket unparsed,
// lines back go out on stdout. Measures the agent → server hop every stdio MCP tool pays.
import net from 'node:net';

const socket = net.connect(process.env.XIPE_BENCH_FLOOR_SOCKET);
process.stdin.pipe(socket);
socket.pipe(process.stdout);
