import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEffect } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { ACCESS_TOKEN_KEY } from '@skillhive/shared/constants';
import { createQueryClient, isUserScopedKey } from '../../../lib/query-client.ts';
import { createFakeApi, apiError, json, list, type FakeApi } from '../../../test/fake-api.ts';
import { useAuth, type AuthContextValue } from '../auth-context.ts';
import { SESSION_QUERY_KEY } from '../api/get-session.ts';
import { classesQueryOptions, DEFAULT_CATALOGUE_PARAMS } from '../../classes/api/get-classes.ts';
import { enrollmentsQueryOptions } from '../../enrollments/api/enrollments.ts';
import { AuthProvider } from './auth-provider.tsx';

interface Account {
  id: string;
  name: string;
  email: string;
  password: string;
  classes: string[];
}

const ANN: Account = {
  id: 'u-ann',
  name: 'Ann Archer',
  email: 'ann@example.test',
  password: 'pw-ann',
  classes: ['Ann’s pottery'],
};
const BEN: Account = {
  id: 'u-ben',
  name: 'Ben Baker',
  email: 'ben@example.test',
  password: 'pw-ben',
  classes: ['Ben’s bread'],
};

/**
 * The server side of these tests: better-auth's session cookie (one browser, so one current
 * session), POST /api/jwt, the role flags and a user-scoped list (GET /api/enrolled/:email) that
 * answers 401 `unauthenticated` to a token whose session has ended, like the real server.
 */
class FakeServer {
  readonly api: FakeApi = createFakeApi();
  session: { id: string; account: Account } | null = null;
  /** While set, the user-scoped list waits for it: what is on screen meanwhile can be checked. */
  hold: Promise<void> | null = null;
  private sessions = 0;
  private liveTokens = new Map<string, Account>();

  constructor() {
    this.api
      .on('GET', '/api/auth/get-session', () =>
        json(
          this.session
            ? {
                session: { id: this.session.id },
                user: {
                  id: this.session.account.id,
                  email: this.session.account.email,
                  name: this.session.account.name,
                  image: null,
                  emailVerified: true,
                },
              }
            : null,
        ),
      )
      .on('POST', '/api/auth/sign-in/email', ({ body }) => {
        const { email, password } = body as { email: string; password: string };
        const account = [ANN, BEN].find((a) => a.email === email && a.password === password);
        if (!account)
          return json({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }, { status: 401 });
        this.signIn(account);
        return json({
          redirect: false,
          token: 'cookie',
          user: { id: account.id, email: account.email, name: account.name },
        });
      })
      .on('POST', '/api/auth/sign-out', () => {
        this.endSession();
        return json({ success: true });
      })
      .on('POST', '/api/jwt', ({ body }) => {
        const email = (body as { email: string }).email;
        if (!this.session || this.session.account.email !== email)
          return apiError(401, 'unauthenticated', 'Please sign in');
        const token = `jwt-${this.session.id}`;
        this.liveTokens.set(token, this.session.account);
        return json({ token });
      })
      .on('GET', '/api/users/admin/:email', () => json({ admin: false }))
      .on('GET', '/api/users/teacher/:email', () => json({ teacher: false }))
      .on('GET', '/api/classes', () => list([]))
      .on('GET', '/api/enrolled/:email', async ({ headers, params }) => {
        await this.hold;
        const token = headers.get('authorization')?.replace('Bearer ', '') ?? '';
        const account = this.liveTokens.get(token);
        if (!account) return apiError(401, 'unauthenticated', 'Please sign in');
        if (account.email !== params['email']) return apiError(403, 'forbidden', 'Not yours');
        return list(account.classes.map((title, i) => ({ _id: `${account.id}-e${i}`, title, status: 'paid' })));
      });
  }

  signIn(account: Account): void {
    this.sessions += 1;
    this.session = { id: `s${this.sessions}`, account };
  }

  /** The session ends on the server (signed out, elsewhere or here): its tokens stop working. */
  endSession(): void {
    if (this.session) this.liveTokens.delete(`jwt-${this.session.id}`);
    this.session = null;
  }
}

let auth: AuthContextValue;

function Probe() {
  const value = useAuth();
  useEffect(() => {
    auth = value;
  });
  const { user, loading } = value;
  const enrolled = useQuery({ ...enrollmentsQueryOptions(user, 1), enabled: user !== null && !loading });
  return (
    <div>
      <p data-testid="who">{loading ? 'loading' : (user?.email ?? 'nobody')}</p>
      <ul aria-label="Enrolled">
        {enrolled.data?.items.map((item) => (
          <li key={item._id}>{item.title}</li>
        ))}
      </ul>
    </div>
  );
}

function renderApp(queryClient: QueryClient) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <AuthProvider>
            <Outlet />
          </AuthProvider>
        ),
        children: [
          { path: '/', element: <Probe /> },
          { path: '/login', element: <p>Login page</p> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const who = () => screen.getByTestId('who').textContent;
/**
 * Keys of cached queries that belong to a person. A signed-out page's disabled user-scoped
 * queries sit under the root with no id (`['user', '', …]`) and never hold data; they are checked
 * to stay empty.
 */
function userScopedKeys(client: QueryClient) {
  const scoped = client
    .getQueryCache()
    .getAll()
    .filter((query) => isUserScopedKey(query.queryKey));
  expect(scoped.filter((query) => query.queryKey[1] === '').map((query) => query.state.data)).toEqual(
    scoped.filter((query) => query.queryKey[1] === '').map(() => undefined),
  );
  return scoped.map((query) => query.queryKey).filter((key) => key[1] !== '');
}

let server: FakeServer;
/** better-auth's client keeps the `fetch` it first saw: each test's server answers through this one. */
const fetchFromCurrentServer: typeof fetch = (input, init) => server.api.fetch(input, init);

describe('AuthProvider', () => {
  let queryClient: QueryClient;

  beforeEach(() => {
    server = new FakeServer();
    vi.stubGlobal('fetch', fetchFromCurrentServer);
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('signs in: the user, then a token for that session, then their own data', async () => {
    renderApp(queryClient);
    await waitFor(() => expect(who()).toBe('nobody'));
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();

    await act(() => auth.signIn(ANN.email, ANN.password));
    await waitFor(() => expect(who()).toBe(ANN.email));
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('jwt-s1');
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();
    expect(auth.role).toBe('student');
  });

  it('refuses a wrong password with the server’s message and stays signed out', async () => {
    renderApp(queryClient);
    await waitFor(() => expect(who()).toBe('nobody'));
    await expect(act(() => auth.signIn(ANN.email, 'wrong'))).rejects.toMatchObject({
      status: 401,
      message: 'Invalid email or password',
    });
    await waitFor(() => expect(who()).toBe('nobody'));
  });

  it('signs out: the token and every user-scoped query go, public data stays', async () => {
    server.signIn(ANN);
    await queryClient.prefetchQuery(classesQueryOptions(DEFAULT_CATALOGUE_PARAMS));
    renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();
    expect(userScopedKeys(queryClient).length).toBeGreaterThan(0);

    await act(() => auth.logOut());
    await waitFor(() => expect(who()).toBe('nobody'));
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(userScopedKeys(queryClient)).toEqual([]);
    expect(queryClient.getMutationCache().getAll()).toEqual([]);
    expect(screen.queryByText('Ann’s pottery')).toBeNull();
    // The catalogue belongs to every visitor: it is still cached.
    expect(queryClient.getQueryData(classesQueryOptions(DEFAULT_CATALOGUE_PARAMS).queryKey)).toBeDefined();
  });

  it('a change of user (another account signed in elsewhere) drops the previous user’s queries', async () => {
    server.signIn(ANN);
    renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();

    server.signIn(BEN);
    let release = () => {};
    server.hold = new Promise((resolve) => (release = resolve));
    await act(() => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }));
    await waitFor(() => expect(who()).toBe(BEN.email));
    // Ben's list is still on its way: Ann's page is not kept on screen as a placeholder.
    await waitFor(() => expect(server.api.calls).toContain(`GET /api/enrolled/${encodeURIComponent(BEN.email)}`));
    expect(screen.queryByText('Ann’s pottery')).toBeNull();
    release();
    expect(await screen.findByText('Ben’s bread')).toBeTruthy();
    expect(screen.queryByText('Ann’s pottery')).toBeNull();
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('jwt-s2');
    const owners = new Set(userScopedKeys(queryClient).map((key) => key[1]));
    expect([...owners]).toEqual([BEN.id]);
  });

  it('a renewed session (password change) gets its own token and keeps the same user’s data', async () => {
    server.signIn(ANN);
    renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('jwt-s1');

    server.endSession();
    server.signIn(ANN);
    await act(() => auth.adoptRenewedSession());
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('jwt-s2');
    expect(who()).toBe(ANN.email);
    expect(screen.getByText('Ann’s pottery')).toBeTruthy();
    expect(userScopedKeys(queryClient).every((key) => key[1] === ANN.id)).toBe(true);
  });

  it('an `unauthenticated` answer signs out, goes to /login and forgets the user’s queries', async () => {
    server.signIn(ANN);
    const router = renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();

    // Signed out everywhere from another device: this tab's token no longer works.
    server.endSession();
    await act(() => queryClient.invalidateQueries({ queryKey: enrollmentsQueryOptions(auth.user, 1).queryKey }));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/' } });
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(userScopedKeys(queryClient)).toEqual([]);
  });
});
