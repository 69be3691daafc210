import { isIP, type LookupFunction, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * TCP and TLS connections to other machines (the destination probe, the deployment's TLS
 * check), and the address-literal test the callers judge a host with before connecting.
 */
export { isIP, type LookupFunction, Socket, tlsConnect };
