import nodemailer from 'nodemailer';
import type { SendMail } from './mail.worker.ts';

/**
 * SMTP delivery through nodemailer (SMTP_URL: smtp://user:pass@host:587 or smtps://…). Timeouts
 * keep a hung server from holding the worker; the Message-ID is the outbox row's, so a message
 * sent twice after a crash is recognisable as one.
 */
export function createSmtpSender(
  smtpUrl: string,
  from: string,
  messageIdDomain: string,
): { send: SendMail; close(): void } {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    send: async (message) => {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.id}@${messageIdDomain}>`,
      });
    },
    close: () => transport.close(),
  };
}
