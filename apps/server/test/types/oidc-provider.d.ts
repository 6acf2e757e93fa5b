/**
 * The small part of oidc-provider (a dev dependency without bundled types) that oidc.test.ts
 * uses: a real OpenID Connect provider the test runs on loopback.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    grantId?: string;
    session?: { accountId: string };
    params: Record<string, unknown> & { client_id: string };
    prompt: {
      name: 'login' | 'consent' | string;
      details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    };
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown> & { sub: string }>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[] };
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required?: () => boolean };
    interactions?: { url?: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
