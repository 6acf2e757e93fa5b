import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useEffect } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ACCESS_TOKEN_KEY } from '@skillhive/shared/rules/constants';
import { createQueryClient, isUserScopedKey } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { deviceOf, enroll, signUp, type Person } from '../../../test/real-api.ts';
import type { CatalogueTitle } from '../../../test/real-server.ts';
import { createLocationProbe } from '../../../test/location-probe.tsx';
import { useAuth, type AuthContextValue } from '../auth-context.ts';
import { SESSION_QUERY_KEY } from '../api/get-session.ts';
import { classesQueryOptions, DEFAULT_CATALOGUE_PARAMS } from '../../classes/api/get-classes.ts';
import { enrollmentsQueryOptions } from '../../enrollments/api/enrollments.ts';
import { AuthProvider } from './auth-provider.tsx';

/** The payload of an API token (a JWT): whose it is and the session it was issued against. */
function claimsOf(token: string | null): { email: string; sid: string } {
  if (!token) throw new Error('no token stored');
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { email: string; sid: string };
}

const browser = browserOnRealServer();

/** The session this browser's cookie names, asked of the server. */
async function currentSessionId(): Promise<string> {
  const { body } = await browser.request<{ session: { id: string } } | null>('GET', '/api/auth/get-session');
  if (!body) throw new Error('no session');
  return body.session.id;
}

/** A verified person with a class in their cart ("Ann’s pottery", "Ben’s bread"). */
async function personWith(name: string, title: CatalogueTitle): Promise<Person> {
  const person = await signUp(browser.server, name);
  await enroll(await deviceOf(browser.server, person), [title]);
  return person;
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
  const { LocationProbe, location } = createLocationProbe();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/']}>
        <AuthProvider>
          <Routes>
            <Route path="/" element={<Probe />} />
            <Route path="/login" element={<p>Login page</p>} />
          </Routes>
          <LocationProbe />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { location };
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

describe('AuthProvider', () => {
  let queryClient: QueryClient;

  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('signs in: the user, then a token for that session, then their own data', async () => {
    const ann = await personWith('Ann Archer', 'Ann’s pottery');
    renderApp(queryClient);
    await waitFor(() => expect(who()).toBe('nobody'));
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();

    await act(() => auth.signIn(ann.email, ann.password));
    await waitFor(() => expect(who()).toBe(ann.email));
    expect(claimsOf(window.localStorage.getItem(ACCESS_TOKEN_KEY))).toMatchObject({
      email: ann.email,
      sid: await currentSessionId(),
    });
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();
    expect(auth.role).toBe('student');
  });

  it('refuses a wrong password with the server’s message and stays signed out', async () => {
    const ann = await signUp(browser.server, 'Ann Archer');
    renderApp(queryClient);
    await waitFor(() => expect(who()).toBe('nobody'));
    await expect(act(() => auth.signIn(ann.email, 'wrong-password'))).rejects.toMatchObject({
      status: 401,
      message: 'Invalid email or password',
    });
    await waitFor(() => expect(who()).toBe('nobody'));
  });

  it('signs out: the token and every user-scoped query go, public data stays', async () => {
    const ann = await personWith('Ann Archer', 'Ann’s pottery');
    await browser.signIn(ann);
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
    // The session ended on the server too.
    expect((await browser.request('GET', '/api/auth/get-session')).body).toBeNull();
  });

  it('a change of user (another account signed in elsewhere) drops the previous user’s queries', async () => {
    const ann = await personWith('Ann Archer', 'Ann’s pottery');
    const ben = await personWith('Ben Baker', 'Ben’s bread');
    await browser.signIn(ann);
    renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();

    // Another tab of this browser signs in as Ben: the cookie is now Ben's session.
    await browser.signIn(ben);
    const bensList = `/api/enrolled/${encodeURIComponent(ben.email)}`;
    const release = browser.hold((method, path) => method === 'GET' && path === bensList);
    await act(() => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }));
    await waitFor(() => expect(who()).toBe(ben.email));
    // Ben's list is still on its way: Ann's page is not kept on screen as a placeholder.
    await waitFor(() => expect(browser.requests).toContain(`GET ${bensList}`));
    expect(screen.queryByText('Ann’s pottery')).toBeNull();
    release();
    expect(await screen.findByText('Ben’s bread')).toBeTruthy();
    expect(screen.queryByText('Ann’s pottery')).toBeNull();
    expect(claimsOf(window.localStorage.getItem(ACCESS_TOKEN_KEY))).toMatchObject({
      email: ben.email,
      sid: await currentSessionId(),
    });
    const owners = new Set(userScopedKeys(queryClient).map((key) => key[1]));
    expect([...owners]).toEqual([ben.id]);
  });

  it('a renewed session (password change) gets its own token and keeps the same user’s data', async () => {
    const ann = await personWith('Ann Archer', 'Ann’s pottery');
    await browser.signIn(ann);
    renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();
    const first = claimsOf(window.localStorage.getItem(ACCESS_TOKEN_KEY));
    expect(first).toMatchObject({ email: ann.email, sid: await currentSessionId() });

    // The profile page changes the password; the server answers with a new session cookie.
    const changed = await browser.request('POST', '/api/auth/change-password', {
      currentPassword: ann.password,
      newPassword: 'Another!Pass2',
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    const renewed = await currentSessionId();
    expect(renewed).not.toBe(first.sid);
    await act(() => auth.adoptRenewedSession());
    expect(claimsOf(window.localStorage.getItem(ACCESS_TOKEN_KEY))).toMatchObject({ email: ann.email, sid: renewed });
    expect(who()).toBe(ann.email);
    expect(screen.getByText('Ann’s pottery')).toBeTruthy();
    expect(userScopedKeys(queryClient).every((key) => key[1] === ann.id)).toBe(true);
  });

  it('an `unauthenticated` answer signs out, goes to /login and forgets the user’s queries', async () => {
    const ann = await personWith('Ann Archer', 'Ann’s pottery');
    await browser.signIn(ann);
    const router = renderApp(queryClient);
    expect(await screen.findByText('Ann’s pottery')).toBeTruthy();

    // Signed out everywhere from another device: this tab's token and cookie no longer work.
    const phone = await deviceOf(browser.server, ann);
    expect((await phone.call('POST', '/api/auth/revoke-sessions', {})).status).toBe(200);
    await act(() => queryClient.invalidateQueries({ queryKey: enrollmentsQueryOptions(auth.user, 1).queryKey }));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(router.location().state).toMatchObject({ from: { pathname: '/' } });
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(userScopedKeys(queryClient)).toEqual([]);
  });
});
