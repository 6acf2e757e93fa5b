import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

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
