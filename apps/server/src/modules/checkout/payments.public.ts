/**
 * What other modules may read of the payments table, which checkout owns (decision 015): refunds
 * lock and look up the payment they give money back on, and the admin searches payments to refund;
 * the ledger locks the payments whose sales it records late (decision 039 §10).
 */
export {
  type PaymentRow,
  findPaymentById,
  findPaymentByTransactionId,
  findPaymentForUpdate,
  lockPayments,
  searchPayments,
} from './checkout.repository.ts';
