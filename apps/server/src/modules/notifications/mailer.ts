import { openSmtp } from '../../net/smtp';

/** One message gets this long, from the connection to the server's final answer. */
export const MAIL_DEADLINE_MS = 20_000;

export interface TMail {
  to: string;
  subject: string;
  text: string;
}

export type TMailOutcome = { sent: true } | { sent: false; reason: string };

export interface TMailer {
  send(mail: TMail): Promise<TMailOutcome>;
}

/**
 * E-mail through the operator's SMTP server (PORTICO_SMTP_URL, PORTICO_MAIL_FROM). Each message
 * opens its own connection (alerts are rare) and is bounded by timeouts on every wait plus one
 * overall deadline; it never throws, it says why it did not send.
 */
export function createMailer(options: {
  smtpUrl: string;
  from: string;
  deadlineMs?: number;
}): TMailer {
  const deadlineMs = options.deadlineMs ?? MAIL_DEADLINE_MS;
  return {
    async send(mail) {
      const smtp = await openSmtp(options.smtpUrl, {
        connectMs: Math.min(10_000, deadlineMs),
        greetingMs: Math.min(10_000, deadlineMs),
        socketMs: deadlineMs,
        dnsMs: Math.min(5_000, deadlineMs),
      });
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<TMailOutcome>((resolve) => {
        timer = setTimeout(
          () => resolve({ sent: false, reason: `no answer within ${deadlineMs / 1000} s` }),
          deadlineMs,
        );
      });
      try {
        return await Promise.race([
          smtp
            .send({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text })
            .then(
              (): TMailOutcome => ({ sent: true }),
              (error: Error): TMailOutcome => ({ sent: false, reason: error.message }),
            ),
          deadline,
        ]);
      } finally {
        clearTimeout(timer);
        smtp.close();
      }
    },
  };
}
