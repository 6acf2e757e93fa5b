import { PaymentPage } from '../../../features/payments/components/payment-page.tsx';
import { VerifyEmailNotice } from '../../../features/auth/components/verify-email-notice.tsx';

/** payment (spec §2): paying needs a verified address, so the page carries the auth notice. */
function PaymentRoute() {
  return <PaymentPage emailNotice={<VerifyEmailNotice />} />;
}

export { PaymentRoute as Component };
