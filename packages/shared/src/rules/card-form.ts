import { z } from 'zod/mini';
import { PAYMENT_MESSAGES, cvcLengthFor, isCardExpired, isValidCardNumber, normalizeCardNumber } from './cards.ts';

/*
 * The card form's schema, a module of its own so that only the payment page loads it (a module is
 * one unit in the web's chunks: beside the other form schemas, every form page would carry it).
 */

const EXPIRY_SHAPE = /^(\d{2})\s*\/\s*(\d{2})$/;

/** "MM/YY" → month and four-digit year, or null when it is not a real month. */
function parseExpiry(expiry: string): { expMonth: number; expYear: number } | null {
  const match = EXPIRY_SHAPE.exec(expiry.trim());
  if (!match) return null;
  const expMonth = Number(match[1]);
  if (expMonth < 1 || expMonth > 12) return null;
  return { expMonth, expYear: 2000 + Number(match[2]) };
}

/**
 * The test gateway's card form: number, expiry as printed ("MM/YY") and CVC, checked as the
 * gateway checks them (`cards.ts`). The expiry is compared with the moment the form is checked.
 * Its output is what POST /api/test-gateway/confirm takes besides the client secret.
 */
export const CardFormBody = z.pipe(
  z
    .object({
      cardNumber: z.string().check(z.refine(isValidCardNumber, PAYMENT_MESSAGES.cardNumber)),
      expiry: z.string().check(
        z.superRefine((value, ctx) => {
          const parsed = parseExpiry(value);
          if (!parsed) ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.expiry, input: value });
          else if (isCardExpired(parsed.expMonth, parsed.expYear, new Date()))
            ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.expired, input: value });
        }),
      ),
      cvc: z.string().check(z.trim(), z.regex(/^\d{3,4}$/, PAYMENT_MESSAGES.cvc)),
    })
    .check(
      z.superRefine((card, ctx) => {
        // An American Express number takes four digits, any other card three.
        if (isValidCardNumber(card.cardNumber) && card.cvc.length !== cvcLengthFor(card.cardNumber))
          ctx.addIssue({ code: 'custom', path: ['cvc'], message: PAYMENT_MESSAGES.cvc, input: card.cvc });
      }),
    ),
  z.transform((card) => ({
    cardNumber: normalizeCardNumber(card.cardNumber),
    ...parseExpiry(card.expiry)!,
    cvc: card.cvc,
  })),
);
export type CardFormInput = z.input<typeof CardFormBody>;
export type CardDetails = z.output<typeof CardFormBody>;
