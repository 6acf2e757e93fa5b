import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '@skillhive/shared/rules/constants';
import { apiClient, ApiError, setUnauthorizedHandler } from './api-client.ts';

function jsonResponse(body: unknown, init: ResponseInit = {}) {
  return new Response(JSON.stringify(body), {
    headers: { 'content-type': 'application/json', ...init.headers },
    status: init.status ?? 200,
  });
}

describe('apiClient', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends the bearer token and cookies on secured calls only', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'tok');
    fetchMock.mockResolvedValue(jsonResponse({ admin: true }));
    await apiClient.get('/users/admin/{user}', { path: { user: 'a@b.test' }, secured: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users/admin/a%40b.test');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
    expect(init?.credentials).toBe('include');

    fetchMock.mockResolvedValue(jsonResponse([]));
    await apiClient.get('/classes');
    const [, publicInit] = fetchMock.mock.calls[1]!;
    expect(new Headers(publicInit?.headers).get('Authorization')).toBeNull();
  });

  it('fills path parameters encoded, and refuses a template without its value', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ deletedCount: 1 }));
    await apiClient.delete('/enrolled/{emailOrId}', { path: { emailOrId: 'a/b?c' }, secured: true });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/enrolled/a%2Fb%3Fc');
    await expect(apiClient.get('/classes/{id}', { path: {} as { id: string } })).rejects.toThrow('no value for {id}');
  });

  it('reads lists with X-Total-Count and drops empty query values', async () => {
    fetchMock.mockResolvedValue(jsonResponse([{ _id: '1' }], { headers: { 'X-Total-Count': '42' } }));
    const result = await apiClient.list('/classes', { query: { q: '', page: 2, limit: 12, category: undefined } });
    expect(result).toEqual({ items: [{ _id: '1' }], total: 42, totalCapped: false });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/classes?page=2&limit=12');
  });

  it('reads a total that is a floor from X-Total-Count-Capped', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse([{ _id: '1' }], { headers: { 'X-Total-Count': '1000', 'X-Total-Count-Capped': 'true' } }),
    );
    expect(await apiClient.list('/classes', { query: { q: 'design' } })).toEqual({
      items: [{ _id: '1' }],
      total: 1000,
      totalCapped: true,
    });
  });

  it('turns the error body into an ApiError with code, message and fields', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          error: { code: 'validation_error', message: 'Bad input', fields: { title: 'Title is required' } },
          requestId: 'r1',
        },
        { status: 400 },
      ),
    );
    const error = await apiClient
      .post('/teachers/teacher-requests', { title: '', experience: 'beginner', category: 'web-development' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'Bad input',
      fields: { title: 'Title is required' },
      requestId: 'r1',
    });
  });

  it("keeps better-auth's own code from under /api/auth beside the standard one", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          error: { code: 'validation_error', message: 'Invalid password' },
          requestId: 'r2',
          code: 'INVALID_PASSWORD',
          message: 'Invalid password',
        },
        { status: 400 },
      ),
    );
    const error = await apiClient
      .post('/auth/change-password', { currentPassword: 'wrong', newPassword: 'N3w-password!' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'validation_error', authCode: 'INVALID_PASSWORD' });
  });

  it('on 401 from a secured call: clears the token, runs the interceptor once, then rethrows', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'stale');
    const handler = vi.fn();
    const dispose = setUnauthorizedHandler(handler);
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: { code: 'unauthenticated', message: 'Sign in' }, requestId: 'r' }, { status: 401 }),
    );

    const results = await Promise.allSettled([
      apiClient.get('/users/profile/{email}', { path: { email: 'a' }, secured: true }),
      apiClient.get('/users/admin/{user}', { path: { user: 'a' }, secured: true }),
    ]);
    expect(
      results.every((r) => r.status === 'rejected' && r.reason instanceof ApiError && r.reason.status === 401),
    ).toBe(true);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();

    // A public call's 401 (e.g. POST /jwt) is an answer, not a reason to sign out.
    await apiClient.post('/jwt', { email: 'a' }).catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
    dispose();
  });

  it('keeps the session on a 403 or a business refusal: only 401 signs out', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'live');
    const handler = vi.fn();
    const dispose = setUnauthorizedHandler(handler);
    fetchMock.mockImplementation(async () =>
      jsonResponse(
        { error: { code: 'forbidden', message: 'Only admins can do this' }, requestId: 'r' },
        { status: 403 },
      ),
    );
    await expect(apiClient.get('/users', { secured: true })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: { code: 'conflict', message: 'This is your own class' }, requestId: 'r' }, { status: 409 }),
    );
    await expect(apiClient.post('/enrolled', { enrollId: 'x' }, { secured: true })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'This is your own class',
    });
    fetchMock.mockImplementation(async () =>
      jsonResponse(
        {
          error: { code: 'validation_error', message: 'Check the form', fields: { rating: 'Pick a rating' } },
          requestId: 'r',
        },
        { status: 422 },
      ),
    );
    await expect(apiClient.post('/reviews', { classId: 'c1' }, { secured: true })).rejects.toMatchObject({
      status: 422,
      fields: { rating: 'Pick a rating' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('live');
    dispose();
  });

  it('signs out on the `unauthenticated` code only, and on a bare 401 from something in between', async () => {
    const handler = vi.fn();
    const dispose = setUnauthorizedHandler(handler);
    // A 401 carrying another code is a refused action (e.g. a wrong password), not an ended session.
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: { code: 'invalid_password', message: 'Wrong password' }, requestId: 'r' }, { status: 401 }),
    );
    await expect(
      apiClient.post(
        '/auth/change-password',
        { currentPassword: 'wrong', newPassword: 'N3w-password!' },
        { secured: true },
      ),
    ).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();

    fetchMock.mockImplementation(async () => new Response('Unauthorized', { status: 401 }));
    await expect(
      apiClient.get('/enrolled/{emailOrId}', { path: { emailOrId: 'a' }, secured: true }),
    ).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
      message: 'Please sign in to continue.',
    });
    expect(handler).toHaveBeenCalledTimes(1);
    dispose();
  });

  it('reports an unreachable server as a network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiClient.get('/classes')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});
