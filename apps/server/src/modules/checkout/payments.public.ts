/**
 * What other modules may read of the payments table, which checkout owns (decision 015): refunds
 * lock and look up the payment they give money back on, and the admin searches payments to refund.
 */
export {
  type PaymentRow,
  findPaymentById,
  findPaymentByTransactionId,
  findPaymentForUpdate,
  searchPayments,
} from './checkout.repository.ts';
