/**
 * What the payment page hands the card area (decision 017). The page owns the cart, the total,
 * the intent and recording the payment; a panel owns the gateway's card form, its confirmation
 * and any 3-D Secure step, and tells the page when the gateway has taken the money.
 * Two panels, each a lazy chunk: TestGatewayPanel (our card form, react-hook-form) and
 * StripePanel (Stripe's Payment Element).
 */
export interface GatewayPanelProps {
  /** The server's intent for the cart; null while it is on its way or being renewed. */
  clientSecret: string | null;
  /** "$49.98", for the Pay button. */
  amountLabel: string;
  /** spec §4: Pay stays disabled until the client secret has arrived (and is current). */
  ready: boolean;
  /** The page is recording the payment the gateway confirmed. */
  recording: boolean;
  /** The page's own message (recording failed), shown where the gateway's errors are. */
  pageError: string | null;
  /** Stripe only: the publishable key and where Stripe.js is loaded from (GET /api/config). */
  stripe: { publishableKey: string; scriptUrl: string } | null;
  /** A confirmation or 3-D Secure step is running: the page locks the cart meanwhile. */
  onBusyChange: (busy: boolean) => void;
  /** The gateway says the charge succeeded: the page records exactly this transaction. */
  onSucceeded: (transactionId: string) => void;
  /** Our server answered 409 (another tab's checkout, a changed cart): the page reloads both. */
  onStale: () => void;
}
