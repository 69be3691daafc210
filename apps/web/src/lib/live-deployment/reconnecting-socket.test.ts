import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logSocketUrl, ReconnectingSocket, type TSocketState } from './reconnecting-socket';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  drop() {
    this.onclose?.(new CloseEvent('close'));
  }
  refuse() {
    this.onclose?.(new CloseEvent('close', { code: 1008, reason: 'too many open sockets' }));
  }
  send(data: string) {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
  close() {
    this.closed = true;
  }
}

const latest = () => FakeSocket.all.at(-1)!;

function start(onMessage = vi.fn()) {
  const states: TSocketState[] = [];
  const socket = new ReconnectingSocket({
    url: 'ws://portico.test/ws?configId=c1',
    onMessage,
    onStateChange: (s) => states.push(s),
    createSocket: (url) => new FakeSocket(url),
  });
  return { socket, states, onMessage };
}

describe('log socket reconnect', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('gives up at once when the server refused the socket (1008: it would refuse again)', () => {
    const { socket } = start();
    latest().open();
    latest().refuse();
    expect(socket.state).toBe('gave-up');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('reconnects 3 s after a close, at most 5 times, then gives up', () => {
    const { socket, states } = start();
    expect(FakeSocket.all).toHaveLength(1);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      latest().drop();
      expect(socket.state).toBe('waiting');
      vi.advanceTimersByTime(2999);
      expect(FakeSocket.all).toHaveLength(attempt);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(attempt + 1);
    }
    latest().drop();
    expect(socket.state).toBe('gave-up');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(6);
    expect(states.at(-1)).toBe('gave-up');
  });

  it('resets the attempt counter when a connection opens', () => {
    const { socket } = start();
    for (let i = 0; i < 4; i += 1) {
      latest().drop();
      vi.advanceTimersByTime(3000);
    }
    expect(socket.attempts).toBe(4);
    latest().open();
    expect(socket.attempts).toBe(0);
    expect(socket.state).toBe('open');
    for (let i = 0; i < 5; i += 1) {
      latest().drop();
      vi.advanceTimersByTime(3000);
    }
    expect(FakeSocket.all).toHaveLength(10);
    expect(socket.state).toBe('connecting');
  });

  it('stops everything when closed on purpose (leaving the step)', () => {
    const { socket } = start();
    latest().drop();
    socket.close();
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1);
    const again = start().socket;
    const current = latest();
    again.close();
    expect(current.closed).toBe(true);
    current.drop();
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('passes known messages on, ignores other types and only logs bad ones', () => {
    const { onMessage } = start();
    latest().open();
    latest().send('{"type":"hello","data":{}}');
    latest().send('{"type":"deployment_status","data":{"status":"completed","deploymentId":"d1"}}');
    latest().send('not json');
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage).toHaveBeenCalledWith({
      type: 'deployment_status',
      data: { status: 'completed', deploymentId: 'd1' },
    });
    expect(console.error).toHaveBeenCalled();
  });

  it('uses the page host, wss when the page is https', () => {
    expect(logSocketUrl('c 1', { protocol: 'https:', host: 'portico.example.com' })).toBe(
      'wss://portico.example.com/ws?configId=c%201',
    );
    expect(logSocketUrl('c1', { protocol: 'http:', host: '127.0.0.1:3917' })).toBe(
      'ws://127.0.0.1:3917/ws?configId=c1',
    );
  });
});
