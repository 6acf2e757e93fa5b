import { z } from 'zod/mini';
import { CATEGORIES, PRICE_MAX_CENTS, PRICE_MIN_CENTS } from './constants.ts';
import { requiredMultilineText, requiredText } from './fields.ts';
import { CLASS_MESSAGES } from './messages.ts';

/** A teacher's class form (add and update a class, spec §5) and the class request bodies. */

/** Price as a decimal number (spec §5 converts it so); the server stores cents. */
export const Price = z.pipe(
  // Missing (the form sends an empty field as undefined) is "required"; anything else that is not a
  // number ("abc", "NaN") says so instead. The branches carry the message too: the form's resolver
  // reports a failed union by its branches' first issue.
  z
    .union([z.number({ error: CLASS_MESSAGES.priceRequired }), z.string({ error: CLASS_MESSAGES.priceRequired })], {
      error: CLASS_MESSAGES.priceRequired,
    })
    .check(
      z.refine((value: number | string) => typeof value !== 'string' || value.trim() !== '', {
        error: CLASS_MESSAGES.priceRequired,
        abort: true,
      }),
    ),
  z.coerce.number<number | string>({ error: CLASS_MESSAGES.priceNumber }).check(
    z.refine((n: number) => Number.isFinite(n), CLASS_MESSAGES.priceNumber),
    z.refine(
      (n: number) => n * 100 >= PRICE_MIN_CENTS - 1e-6 && n * 100 <= PRICE_MAX_CENTS + 1e-6,
      CLASS_MESSAGES.priceRange,
    ),
    z.refine((n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, CLASS_MESSAGES.priceCents),
  ),
);

/** The display_url of one of our uploads. */
export const ImageUrl = requiredText(CLASS_MESSAGES.imageRequired, 2048, CLASS_MESSAGES.imageTooLong);

/** POST /api/classes: name, e-mail and status come from the server (DESIGN §1.1). */
export const CreateClassBody = z.object({
  title: requiredText(CLASS_MESSAGES.titleRequired, 120, CLASS_MESSAGES.titleTooLong),
  price: Price,
  description: requiredMultilineText(
    CLASS_MESSAGES.descriptionRequired,
    5000,
    'Description must be at most 5000 characters',
  ),
  image: ImageUrl,
  category: z.enum(CATEGORIES, { error: CLASS_MESSAGES.categoryRequired }),
});
export type CreateClassBody = z.infer<typeof CreateClassBody>;

/** PATCH /api/classes/:id: any subset of the editable fields (spec §7). */
export const UpdateClassBody = z.partial(CreateClassBody);
export type UpdateClassBody = z.infer<typeof UpdateClassBody>;
