import { apiClient } from '../../../lib/api-client.ts';

/**
 * POST /api/jwt {email} → {token} (spec §4, §7). Public in the spec's sense (no bearer token);
 * the server only answers a caller whose session cookie proves that e-mail (DESIGN §1.2).
 */
export async function requestToken(email: string): Promise<string> {
  const { token } = await apiClient.post('/jwt', { email });
  if (typeof token !== 'string' || token === '') throw new Error('The server did not return a token.');
  return token;
}
