// Temporary alias of the old specifier @skillhive/shared/cards; removed by the specifier rename.
export {
  PAYMENT_MESSAGES,
  cvcLengthFor,
  fullExpiryYear,
  isCardExpired,
  isValidCardNumber,
  normalizeCardNumber,
  passesLuhn,
} from '../rules/cards.ts';
