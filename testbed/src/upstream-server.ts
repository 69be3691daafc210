// The lab's upstream service: what a deployed site forwards to. It names itself, echoes the
// headers a reverse proxy must set, and echoes WebSocket messages to test upgrades.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';

const { values } = parseArgs({
  options: { host: { type: 'string' }, port: { type: 'string' }, name: { type: 'string' } },
});
const host = values.host ?? '127.0.0.1';
const port = Number(values.port ?? 8080);
const name = values.name ?? 'portico-lab-upstream';

const header = (request: http.IncomingMessage, key: string) => request.headers[key] ?? null;

const server = http.createServer((request, response) => {
  const body = JSON.stringify({
    upstream: name,
    method: request.method,
    path: request.url,
    host: header(request, 'host'),
    xForwardedFor: header(request, 'x-forwarded-for'),
    xForwardedProto: header(request, 'x-forwarded-proto'),
    xRealIp: header(request, 'x-real-ip'),
    remoteAddress: request.socket.remoteAddress,
  });
  response.writeHead(200, { 'content-type': 'application/json', 'x-upstream': name });
  response.end(body);
});

const sockets = new WebSocketServer({ server });
sockets.on('connection', (socket, request) => {
  socket.send(JSON.stringify({ upstream: name, host: header(request, 'host') }));
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});

server.listen(port, host, () => console.info(`${name} listening on ${host}:${port}`));
process.on('SIGTERM', () => process.exit(0));
