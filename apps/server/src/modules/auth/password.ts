import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const argon2Async = promisify(argon2);

/**
 * Argon2id with OWASP's minimum profile (m = 19 MiB, t = 2, p = 1), from Node's own crypto
 * (Node ≥ 24.7), stored in the PHC string format so parameters can be raised later.
 */
const PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

/** The PHC format's "B64": standard base64 without padding, which other argon2 libraries read. */
function toPhcB64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const tag = await argon2Async('argon2id', { message: password, nonce, ...PARAMS });
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${toPhcB64(nonce)}$${toPhcB64(tag)}`;
}

// Salt and hash in PHC B64 ([A-Za-z0-9+/]) or, as hashes stored before decision 013 were, base64url
// ([A-Za-z0-9_-]); Node's base64 decoder reads both alphabets.
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w+/-]+)\$([\w+/-]+)$/;

/**
 * Whether a stored hash should be replaced after the next successful sign-in: written in the old
 * base64url encoding, or with weaker parameters than today's.
 */
export function needsRehash(hash: string): boolean {
  const match = PHC.exec(hash);
  if (!match) return false;
  const [, memory, passes, parallelism, nonce, tag] = match;
  return (
    /[-_]/.test(`${nonce}${tag}`) ||
    Number(memory) < PARAMS.memory ||
    Number(passes) < PARAMS.passes ||
    Number(parallelism) < PARAMS.parallelism
  );
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const match = PHC.exec(hash);
  if (!match) return false;
  const [, memory, passes, parallelism, nonce, expected] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const expectedTag = Buffer.from(expected, 'base64');
  const tag = await argon2Async('argon2id', {
    message: password,
    nonce: Buffer.from(nonce, 'base64'),
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expectedTag.length,
  });
  return timingSafeEqual(tag, expectedTag);
}
