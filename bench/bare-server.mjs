// The ceiling of any Node HTTP service on this machine: a bare node:http JSON hello world.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
