/** The card checks shared by the web's card form and the test gateway; no Zod here. */

/** Card numbers may be typed with spaces or dashes between the groups. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function isValidCardNumber(input: string): boolean {
  const digits = normalizeCardNumber(input);
  return /^\d{12,19}$/.test(digits) && passesLuhn(digits);
}

/** American Express numbers start with 34 or 37 and have a four-digit CVC; other cards three. */
export function cvcLengthFor(cardNumber: string): 3 | 4 {
  return /^3[47]/.test(normalizeCardNumber(cardNumber)) ? 4 : 3;
}

/** Two-digit years mean 20xx, as printed on cards. */
export function fullExpiryYear(expYear: number): number {
  return expYear < 100 ? 2000 + expYear : expYear;
}

/**
 * Whether a card is past its expiry: a card is valid through the last day of its expiry month.
 * Compared in UTC so server and browser agree.
 */
export function isCardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = fullExpiryYear(expYear);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && expMonth < currentMonth);
}
