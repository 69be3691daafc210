import http from 'node:http';
import https from 'node:https';
import type { ConnectionOptions } from 'node:tls';

export type { ClientRequest, IncomingMessage } from 'node:http';

/** Node hands `secureContext` on to the TLS connection; its https types do not list it. */
export type THttpRequestOptions = https.RequestOptions & Pick<ConnectionOptions, 'secureContext'>;

/**
 * Every outbound HTTP request Portico makes (webhooks, the checks of a deployed site): over TLS
 * when the URL's or the options' protocol is `https:`. The caller ends it and bounds its time.
 */
export function httpRequest(options: THttpRequestOptions, url?: URL): http.ClientRequest {
  const client = (url?.protocol ?? options.protocol) === 'https:' ? https : http;
  return url ? client.request(url, options) : client.request(options);
}
