import { CookieJar, fetchAsPage } from './browser.ts';
import type { CatalogueTitle, RealServer } from './real-server.ts';

/**
 * Test set-up through the real API, as a person on another device would do it: sign up, follow
 * the verification link (read from the development mailbox by the seeded admin), sign in, enroll,
 * pay with the test gateway. Nothing here touches the database.
 */

export const PASSWORD = 'Test!Pass1';

let counter = 0;
function uniqueEmail(prefix: string): string {
  counter += 1;
  const slug = prefix
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
  return `${slug}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** One device signed in (or not yet) on `server`: its own cookies, and a token once asked for. */
export class Device {
  private readonly jar = new CookieJar();
  readonly server: RealServer;
  token: string | null = null;

  constructor(server: RealServer) {
    this.server = server;
  }

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options: { redirect?: RequestRedirect } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    const { response } = await fetchAsPage(this.jar, this.server.baseUrl, path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(options.redirect ? { redirect: options.redirect } : {}),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      body: (type.includes('json') && text ? JSON.parse(text) : text) as T,
      headers: response.headers,
    };
  }

  async ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async signIn(email: string, password = PASSWORD): Promise<this> {
    await this.ok('POST', '/api/auth/sign-in/email', { email, password });
    this.token = (await this.ok<{ token: string }>('POST', '/api/jwt', { email })).token;
    return this;
  }
}

const admins = new Map<string, Promise<Device>>();
function adminOf(server: RealServer): Promise<Device> {
  let admin = admins.get(server.baseUrl);
  if (!admin) {
    admin = new Device(server).signIn(server.admin.email, server.admin.password);
    admins.set(server.baseUrl, admin);
  }
  return admin;
}

/** Follows the link of the newest verification mail to `email`, as its owner would. */
async function verifyEmail(server: RealServer, email: string): Promise<void> {
  const admin = await adminOf(server);
  const mails = await admin.ok<{ to: string; kind: string; text: string }[]>('GET', '/api/admin/mailbox?limit=100');
  const mail = mails.find((entry) => entry.to === email.toLowerCase() && entry.kind === 'verify-email');
  const link = mail?.text.match(/https?:\/\/\S+\/api\/auth\/\S+/)?.[0];
  if (!link) throw new Error(`no verification mail to ${email}`);
  const url = new URL(link);
  const answer = await new Device(server).call('GET', url.pathname + url.search, undefined, { redirect: 'manual' });
  const location = answer.headers.get('location') ?? '';
  if (answer.status !== 302 || location.includes('error=')) {
    throw new Error(`verification failed: ${answer.status} ${location}`);
  }
}

export interface Person {
  id: string;
  name: string;
  email: string;
  password: string;
}

/** Signs a new person up (POST /api/auth/sign-up/email); verified unless `verified: false`. */
export async function signUp(server: RealServer, name: string, options: { verified?: boolean } = {}): Promise<Person> {
  const email = uniqueEmail(name);
  const { user } = await new Device(server).ok<{ user: { id: string } }>('POST', '/api/auth/sign-up/email', {
    name,
    email,
    password: PASSWORD,
    phone: '+1 555-010-12345',
    image: 'https://example.test/avatar.png',
  });
  if (options.verified !== false) await verifyEmail(server, email);
  return { id: user.id, name, email, password: PASSWORD };
}

/** `person` signed in on a device of their own. */
export function deviceOf(server: RealServer, person: Person): Promise<Device> {
  return new Device(server).signIn(person.email, person.password);
}

/** Puts the classes in the person's cart (POST /api/enrolled). */
export async function enroll(device: Device, titles: CatalogueTitle[]): Promise<void> {
  for (const title of titles) await device.ok('POST', '/api/enrolled', { enrollId: device.server.classes[title] });
}

/** Enrolls and pays for the classes with the test gateway's card that succeeds (spec §4). */
export async function buy(device: Device, titles: CatalogueTitle[]): Promise<void> {
  await enroll(device, titles);
  const intent = await device.ok<{ clientSecret: string; cartIds: string[] }>('POST', '/api/create-payment-intent', {});
  const { transactionId } = await device.ok<{ transactionId: string }>('POST', '/api/test-gateway/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 3,
    cvc: '123',
  });
  await device.ok('POST', '/api/payments', { transactionId, cartIds: intent.cartIds });
}

/** An admin creates a site-wide coupon (POST /api/admin/coupons); answers its code. */
export async function createSiteCoupon(
  server: RealServer,
  terms: { code: string; kind: 'percent' | 'fixed'; value: number; maxUses?: number },
): Promise<string> {
  return (await (await adminOf(server)).ok<{ code: string }>('POST', '/api/admin/coupons', terms)).code;
}

/** An admin deletes the class (DELETE /api/classes/:id): with paid enrollments it is archived. */
export async function withdrawClass(server: RealServer, title: CatalogueTitle): Promise<void> {
  await (await adminOf(server)).ok('DELETE', `/api/classes/${server.classes[title]}`);
}
