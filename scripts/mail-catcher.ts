import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback for the scripts that run built instances (test:multi, chaos):
 * the instances' mail workers deliver to it, and a script follows the links people would click,
 * such as the verification link a new account needs before it can pay.
 */
export interface MailCatcher {
  url: string;
  /** The first link under /api/auth/ in the newest mail to `to` whose subject starts so; waits for it. */
  linkIn(to: string, subject: string, timeoutMs?: number): Promise<URL>;
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: { to: string; subject: string; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a?.text ?? '').join(',');
          mails.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    async linkIn(to, subject, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.findLast((m) => m.to === to.toLowerCase() && m.subject.startsWith(subject));
        const link = mail?.text.match(/https?:\/\/\S+\/api\/auth\/\S+/)?.[0];
        if (link) return new URL(link);
        if (Date.now() > until) throw new Error(`no "${subject}" mail with a link reached ${to}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
