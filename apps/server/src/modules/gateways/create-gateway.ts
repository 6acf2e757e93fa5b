import type { Db } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import type { PaymentGateway } from './gateway.public.ts';
import { createStripeGateway } from './stripe-gateway.ts';
import { createTestGateway } from './test-gateway.ts';

/**
 * The gateway env.ts chose: Stripe (its keys are then all set), or the test gateway — which a
 * production server runs only when PAYMENTS_GATEWAY=test says so (env.ts).
 */
export function createGateway(env: Env, db: Db, now: () => Date): PaymentGateway {
  if (
    env.paymentsGateway === 'stripe' &&
    env.STRIPE_SECRET_KEY &&
    env.STRIPE_PUBLISHABLE_KEY &&
    env.STRIPE_WEBHOOK_SECRET
  ) {
    return createStripeGateway({
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiBase: env.STRIPE_API_BASE,
    });
  }
  return createTestGateway(db, now);
}
