import type { TWsMessage } from '@portico/shared/proxy/api';
import { describe, expect, it } from 'vitest';
import {
  deploymentSocketUrl,
  MAX_RECONNECT_ATTEMPTS,
  openLiveSocket,
  RECONNECT_DELAY_MS,
} from './live-socket';

class FakeSocket {
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  drop() {
    this.onclose?.(new Event('close') as CloseEvent);
  }
  refuse() {
    this.onclose?.(new CloseEvent('close', { code: 1008, reason: 'too many open sockets' }));
  }
  send(data: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const messages: TWsMessage[] = [];
  const stop = openLiveSocket({
    url: 'ws://portico.test/ws?configId=c1',
    onMessage: (m) => messages.push(m),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    setTimer: (fn, ms) => {
      timers.push({ fn, ms });
      return timers.length;
    },
    clearTimer: () => {},
  });
  const fire = () => timers.shift()?.fn();
  return { sockets, timers, messages, stop, fire };
}

describe('deployment log socket (5 attempts, 3 s apart, counter reset on open)', () => {
  it('uses the same host, wss when the page is https', () => {
    expect(
      deploymentSocketUrl('a/b', { protocol: 'https:', host: 'p.example:8443' } as Location),
    ).toBe('wss://p.example:8443/ws?configId=a%2Fb');
    expect(
      deploymentSocketUrl('c1', { protocol: 'http:', host: '127.0.0.1:3000' } as Location),
    ).toBe('ws://127.0.0.1:3000/ws?configId=c1');
  });

  it('gives up after five reconnect attempts 3 s apart', () => {
    const h = harness();
    for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt += 1) {
      h.sockets.at(-1)?.drop();
      expect(h.timers).toHaveLength(1);
      expect(h.timers[0]?.ms).toBe(RECONNECT_DELAY_MS);
      h.fire();
    }
    expect(h.sockets).toHaveLength(1 + MAX_RECONNECT_ATTEMPTS);
    h.sockets.at(-1)?.drop();
    expect(h.timers).toHaveLength(0);
  });

  it('starts counting again after a successful open', () => {
    const h = harness();
    for (let i = 0; i < 4; i += 1) {
      h.sockets.at(-1)?.drop();
      h.fire();
    }
    h.sockets.at(-1)?.open();
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i += 1) {
      h.sockets.at(-1)?.drop();
      h.fire();
    }
    expect(h.sockets).toHaveLength(1 + 4 + MAX_RECONNECT_ATTEMPTS);
  });

  it('passes on known messages and ignores other types and unreadable text', () => {
    const h = harness();
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', data: {} });
    socket.onmessage?.(new MessageEvent('message', { data: '{not json' }));
    socket.send({ type: 'deployment_status', data: { status: 'completed', deploymentId: 'd1' } });
    expect(h.messages).toEqual([
      { type: 'deployment_status', data: { status: 'completed', deploymentId: 'd1' } },
    ]);
  });

  it('does not reconnect after the server refused the socket (1008: it would refuse again)', () => {
    const h = harness();
    h.sockets[0]?.open();
    h.sockets[0]?.refuse();
    expect(h.timers).toHaveLength(0);
  });

  it('does not reconnect once stopped', () => {
    const h = harness();
    h.stop();
    expect(h.sockets[0]?.closed).toBe(true);
    h.sockets[0]?.drop();
    expect(h.timers).toHaveLength(0);
  });
});
