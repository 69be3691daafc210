import { type TWsMessage, WS_CLOSE_REFUSED, ZWsMessage } from '@portico/shared/proxy/api';
import { logSocketUrl } from '@/lib/log-socket-url';

// Log socket (docs/PRODUCT.md#logs-and-the-live-socket): reconnect after a close, at most 5 attempts 3 s apart; the counter
// resets on open.
export const RECONNECT_DELAY_MS = 3000;
export const MAX_RECONNECT_ATTEMPTS = 5;

type TSocketLike = {
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  close: () => void;
};

export type TLiveSocketOptions = {
  url: string;
  onMessage: (message: TWsMessage) => void;
  /** Connected or not, for a small indicator. */
  onConnectedChange?: (connected: boolean) => void;
  createSocket?: (url: string) => TSocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
};

export function deploymentSocketUrl(
  configId: string,
  location: Location = window.location,
  lang?: string,
): string {
  return logSocketUrl(configId, location, lang);
}

/** Opens the log socket and keeps it open within the reconnect policy; returns a stop function. */
export function openLiveSocket(options: TLiveSocketOptions): () => void {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let attempts = 0;
  let stopped = false;
  let socket: TSocketLike | null = null;
  let timer: unknown = null;

  const connect = () => {
    timer = null;
    const current = createSocket(options.url);
    socket = current;
    current.onopen = () => {
      attempts = 0;
      options.onConnectedChange?.(true);
    };
    current.onmessage = (event) => {
      try {
        const parsed = ZWsMessage.safeParse(JSON.parse(String(event.data)));
        // Other message types are ignored.
        if (parsed.success) options.onMessage(parsed.data);
      } catch (error) {
        console.error('deployment log socket: unreadable message', error);
      }
    };
    current.onerror = (event) => {
      console.error('deployment log socket error', event);
    };
    current.onclose = (event) => {
      options.onConnectedChange?.(false);
      if (stopped || attempts >= MAX_RECONNECT_ATTEMPTS) return;
      // Refused (not allowed, session ended, too many sockets): another try would be too.
      if (event.code === WS_CLOSE_REFUSED) return;
      attempts += 1;
      timer = setTimer(connect, RECONNECT_DELAY_MS);
    };
  };

  connect();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
    options.onConnectedChange?.(false);
  };
}
