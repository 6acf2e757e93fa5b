import type { Db } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import type { PaymentGateway } from './gateway.ts';
import { createStripeGateway } from './stripe-gateway.ts';
import { createTestGateway } from './test-gateway.ts';

/** Stripe when STRIPE_SECRET_KEY is set (env.ts requires its two partners then); else the test gateway. */
export function createGateway(env: Env, db: Db, now: () => Date): PaymentGateway {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET) {
    return createStripeGateway({
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiBase: env.STRIPE_API_BASE,
    });
  }
  return createTestGateway(db, now);
}
