import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback for the mail tests: it accepts every
 * message and keeps it parsed, so tests read what a person's mail client would show.
 */
export interface TestSmtpServer {
  port: number;
  url: string;
  messages: ParsedMail[];
  /** Messages whose data started to arrive (the slow server counts them before it answers). */
  receiving(): number;
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Resolves with the first message to `to` whose subject starts with `subject`, once it arrives. */
  waitForMail(to: string, subject: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** `delayMs`: a slow server, which answers each message's data that long after it arrived. */
export async function startSmtpServer(port = 0, options: { delayMs?: number } = {}): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  let receiving = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      receiving += 1;
      simpleParser(stream)
        .then(async (mail) => {
          if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
          messages.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    messages,
    receiving: () => receiving,
    async waitFor(count, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return messages;
    },
    async waitForMail(to, subject, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(
          (m) => m.subject?.startsWith(subject) && (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === to),
        );
        if (found) return found;
        if (Date.now() > until) throw new Error(`no mail "${subject}" to ${to}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
