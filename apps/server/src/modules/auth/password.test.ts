import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

describe('argon2id passwords', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const hash = await hashPassword('Secret#1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword({ hash, password: 'Secret#1' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'Secret#2' })).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('Secret#1')).not.toBe(await hashPassword('Secret#1'));
  });

  it('rejects a malformed stored hash without throwing', async () => {
    expect(await verifyPassword({ hash: 'plain', password: 'x' })).toBe(false);
  });
});

describe('PHC string encoding (decision 013)', () => {
  it('writes salt and hash in the PHC B64 alphabet without padding', async () => {
    for (let i = 0; i < 20; i++) {
      const hash = await hashPassword('Secret#1');
      const [, , , , salt, tag] = hash.split('$');
      expect(salt).toMatch(/^[A-Za-z0-9+/]{22}$/);
      expect(tag).toMatch(/^[A-Za-z0-9+/]{43}$/);
      expect(needsRehash(hash)).toBe(false);
    }
  });

  it('still verifies hashes stored in base64url, and marks them for rewriting', async () => {
    // The old encoding of the same salt and tag: '+' → '-', '/' → '_'.
    let hash = '';
    while (!/[+/]/.test(hash)) hash = await hashPassword('Secret#1');
    const legacy = hash.replace(/\+/g, '-').replace(/\//g, '_');
    expect(await verifyPassword({ hash: legacy, password: 'Secret#1' })).toBe(true);
    expect(await verifyPassword({ hash: legacy, password: 'Secret#2' })).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });

  it('marks hashes made with weaker parameters for rewriting', () => {
    expect(needsRehash('$argon2id$v=19$m=4096,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA')).toBe(true);
    expect(needsRehash('not a hash')).toBe(false);
  });
});
