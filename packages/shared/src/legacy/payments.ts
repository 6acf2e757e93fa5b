// Temporary alias of the old specifier @skillhive/shared/payments; removed by the specifier rename.
export {
  AuthenticateBody,
  ConfirmCardBody,
  ConfirmCardResponse,
  CreatePaymentBody,
  CreatePaymentIntentBody,
  CreatePaymentResponse,
  Payment,
  PaymentIntentResponse,
  PaymentListQuery,
  WebhookResponse,
} from '../contracts/payments.ts';
export {
  PAYMENT_MESSAGES,
  cvcLengthFor,
  fullExpiryYear,
  isCardExpired,
  isValidCardNumber,
  normalizeCardNumber,
  passesLuhn,
} from '../rules/cards.ts';
