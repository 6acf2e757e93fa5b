// Temporary alias of the old specifier @skillhive/shared/cards; removed by the specifier rename.
export {
  cvcLengthFor,
  fullExpiryYear,
  isCardExpired,
  isValidCardNumber,
  normalizeCardNumber,
  passesLuhn,
} from '../rules/cards.ts';
export { PAYMENT_MESSAGES } from '../rules/messages.ts';
