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
      // Loaded at the first message: an instance that never sends mail never holds it.
      const { createTransport } = await import('nodemailer');
      const transport = createTransport({
        url: options.smtpUrl,
        connectionTimeout: Math.min(10_000, deadlineMs),
        greetingTimeout: Math.min(10_000, deadlineMs),
        socketTimeout: deadlineMs,
        dnsTimeout: Math.min(5_000, deadlineMs),
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
          transport
            .sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text })
            .then(
              (): TMailOutcome => ({ sent: true }),
              (error: Error): TMailOutcome => ({ sent: false, reason: error.message }),
            ),
          deadline,
        ]);
      } finally {
        clearTimeout(timer);
        transport.close();
      }
    },
  };
}
