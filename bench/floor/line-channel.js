// The bench floor's one wire format: newline-delimited JSON, a reply carrying its request's id.

/** Request/response by id over newline-delimited JSON; `write` sends one line. */
export function lineChannel(write, readable) {
  const waiting = new Map();
  let buffered = '';
  let lastId = 0;
  readable.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const msg = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      const settle = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error !== undefined) settle?.reject(new Error(`floor: ${msg.error}`));
      else settle?.resolve(msg.result);
    }
  });
  return (msg) =>
    new Promise((resolve, reject) => {
      lastId += 1;
      waiting.set(lastId, { resolve, reject });
      write(`${JSON.stringify({ ...msg, id: lastId })}\n`);
    });
}
