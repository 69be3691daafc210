import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:tls';

/**
 * The scale bench's sites as the certificate watch sees them, in a process of their own (their
 * CPU is not the pass's): at WATCH_ADDRESS, a TLS server on 443 presenting WATCH_CERT (a
 * wildcard for every bench domain, signed by the bench's CA) and plain HTTP on 80 redirecting
 * to https://<host>/, as a deployed Portico site answers. Prints "ready" once both listen.
 */
const address = process.env.WATCH_ADDRESS;
const tls = createTlsServer({ key: process.env.WATCH_KEY, cert: process.env.WATCH_CERT }, (s) =>
  s.end(),
);
const http = createServer((request, response) => {
  response.writeHead(301, { location: `https://${request.headers.host}/` });
  response.end();
});
await Promise.all([
  new Promise((resolve) => tls.listen(443, address, resolve)),
  new Promise((resolve) => http.listen(80, address, resolve)),
]);
console.info('ready');
