import type { Transporter } from 'nodemailer';

/** How long each wait of one SMTP connection may take. */
export interface TSmtpTimeouts {
  connectMs: number;
  greetingMs: number;
  socketMs: number;
  dnsMs: number;
}

export interface TSmtpMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** One SMTP connection: its messages, then closed. */
export interface TSmtpConnection {
  /** Resolves once the server accepted the message; rejects with its refusal or the failure. */
  send(message: TSmtpMessage): Promise<void>;
  close(): void;
}

/**
 * A connection to the SMTP server at `url` (`smtp://` or `smtps://`, with its login), every wait
 * bounded by `timeouts`. nodemailer is loaded here at the first message: an instance that never
 * sends mail never holds it.
 */
export async function openSmtp(url: string, timeouts: TSmtpTimeouts): Promise<TSmtpConnection> {
  const { createTransport } = await import('nodemailer');
  const transport: Transporter = createTransport({
    url,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.dnsMs,
  });
  return {
    async send(message) {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}
