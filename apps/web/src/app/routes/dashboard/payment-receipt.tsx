import { PaymentReceiptPage } from '../../../features/payments/components/payment-receipt.tsx';
import { useIdParam } from './use-id-param.ts';

/** paymentHistory/:id: a receipt per payment. */
function PaymentReceiptRoute() {
  const id = useIdParam();
  return <PaymentReceiptPage key={id} paymentId={id} />;
}

export { PaymentReceiptRoute as Component };
