// Log socket (docs/PRODUCT.md#logs-and-the-live-socket): reconnect after a close, at most 5 attempts 3 s apart; the counter resets
// when a connection opens; closing on purpose (leaving the step or the page) stops everything.
import { type TWsMessage, WS_CLOSE_REFUSED, ZWsMessage } from '@portico/shared/proxy/api';

const RECONNECT_DELAY_MS = 3000;
const MAX_RECONNECT_ATTEMPTS = 5;

export type TSocketState = 'connecting' | 'open' | 'waiting' | 'gave-up' | 'closed';

type TSocketLike = {
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  close: () => void;
};

type TReconnectingSocketOptions = {
  url: string;
  /** Known messages only: other types and unreadable text never reach the caller. */
  onMessage: (message: TWsMessage) => void;
  onStateChange?: (state: TSocketState, attempts: number) => void;
  createSocket?: (url: string) => TSocketLike;
  delayMs?: number;
  maxAttempts?: number;
};

/** The reconnect policy alone: how many tries are left and whether to try again. */
class ReconnectPolicy {
  attempts = 0;
  constructor(readonly maxAttempts = MAX_RECONNECT_ATTEMPTS) {}
  opened(): void {
    this.attempts = 0;
  }
  /** After a close: true when another attempt is allowed (and counts it). */
  shouldRetry(): boolean {
    if (this.attempts >= this.maxAttempts) return false;
    this.attempts += 1;
    return true;
  }
}

export class ReconnectingSocket {
  private socket: TSocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly policy: ReconnectPolicy;
  state: TSocketState = 'connecting';

  constructor(private readonly options: TReconnectingSocketOptions) {
    this.policy = new ReconnectPolicy(options.maxAttempts);
    this.connect();
  }

  get attempts(): number {
    return this.policy.attempts;
  }

  private setState(state: TSocketState): void {
    this.state = state;
    this.options.onStateChange?.(state, this.policy.attempts);
  }

  private connect(): void {
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    this.setState('connecting');
    let socket: TSocketLike;
    try {
      socket = create(this.options.url);
    } catch (error) {
      console.error('log socket', error);
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.policy.opened();
      this.setState('open');
    };
    socket.onmessage = (ev) => {
      try {
        const parsed = ZWsMessage.safeParse(JSON.parse(String(ev.data)));
        // Other message types are ignored.
        if (parsed.success) this.options.onMessage(parsed.data);
      } catch (error) {
        // Socket parse errors only go to the console.
        console.error('log socket message', error);
      }
    };
    socket.onerror = (ev) => console.error('log socket error', ev);
    socket.onclose = (ev) => {
      this.socket = null;
      if (this.stopped) return;
      // Refused (not allowed, session ended, too many sockets): another try would be too.
      if (ev.code === WS_CLOSE_REFUSED) {
        this.setState('gave-up');
        return;
      }
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (!this.policy.shouldRetry()) {
      this.setState('gave-up');
      return;
    }
    this.setState('waiting');
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, this.options.delayMs ?? RECONNECT_DELAY_MS);
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close();
    }
    this.state = 'closed';
  }
}

/**
 * The log socket of a configuration: same host as the page, wss when the page is https.
 * `lang` names the viewer's language, in which the server writes its lines' words.
 */
export function logSocketUrl(
  configurationId: string,
  location: Pick<Location, 'protocol' | 'host'>,
  lang?: string,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const language = lang ? `&lang=${encodeURIComponent(lang)}` : '';
  return `${scheme}://${location.host}/ws?configId=${encodeURIComponent(configurationId)}${language}`;
}
