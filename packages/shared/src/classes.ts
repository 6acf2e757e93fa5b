import { z } from 'zod';
import { CATEGORIES, CLASS_SORTS, CLASS_STATUSES, PRICE_MAX_CENTS, PRICE_MIN_CENTS } from './constants.ts';
import { PageQuery } from './common.ts';

export const CLASS_MESSAGES = {
  titleRequired: 'Title is required',
  priceRequired: 'Price is required',
  priceRange: 'Price must be between 0.50 and 10,000',
  priceCents: 'Price can have at most two decimals',
  descriptionRequired: 'Description is required',
  imageRequired: 'Image is required',
  categoryRequired: 'Category is required',
} as const;

/** Price as a decimal number (spec §5 converts it so); the server stores cents. */
export const Price = z.coerce
  .number({ error: CLASS_MESSAGES.priceRequired })
  .refine((n) => Number.isFinite(n), CLASS_MESSAGES.priceRequired)
  .refine((n) => n * 100 >= PRICE_MIN_CENTS - 1e-6 && n * 100 <= PRICE_MAX_CENTS + 1e-6, CLASS_MESSAGES.priceRange)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, CLASS_MESSAGES.priceCents);

/** The display_url of one of our uploads. */
export const ImageUrl = z
  .string({ error: CLASS_MESSAGES.imageRequired })
  .trim()
  .min(1, CLASS_MESSAGES.imageRequired)
  .max(2048);

/** POST /api/classes: name, e-mail and status come from the server (DESIGN §1.1). */
export const CreateClassBody = z.object({
  title: z.string({ error: CLASS_MESSAGES.titleRequired }).trim().min(1, CLASS_MESSAGES.titleRequired).max(120),
  price: Price,
  description: z
    .string({ error: CLASS_MESSAGES.descriptionRequired })
    .trim()
    .min(1, CLASS_MESSAGES.descriptionRequired)
    .max(5000, 'Description must be at most 5000 characters'),
  image: ImageUrl,
  category: z.enum(CATEGORIES, { error: CLASS_MESSAGES.categoryRequired }),
});
export type CreateClassBody = z.infer<typeof CreateClassBody>;

/** PATCH /api/classes/:id: any subset of the editable fields (spec §7). */
export const UpdateClassBody = CreateClassBody.partial();
export type UpdateClassBody = z.infer<typeof UpdateClassBody>;

/** PATCH /api/classes/class-requests/:id/reject: an optional reason its teacher sees; no body at all is fine. */
export const RejectClassBody = z.object({ reason: z.string().trim().max(500).optional() }).nullish();
export type RejectClassBody = z.infer<typeof RejectClassBody>;

/** PATCH /api/classes/:id and the moderation calls (DESIGN §1.7: a success the client can read). */
export const ClassModifiedResponse = z.object({ modifiedCount: z.number().int(), success: z.literal(true) });
export type ClassModifiedResponse = z.infer<typeof ClassModifiedResponse>;

export const ClassItem = z.object({
  _id: z.string(),
  title: z.string(),
  /** The teacher's name and e-mail (spec §3). */
  name: z.string(),
  email: z.string(),
  price: z.number(),
  description: z.string(),
  image: z.string(),
  category: z.enum(CATEGORIES),
  status: z.enum(CLASS_STATUSES),
  rejectionReason: z.string().nullable(),
  totalEnrollment: z.number().int(),
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
  createdAt: z.string(),
});
export type ClassItem = z.infer<typeof ClassItem>;

/** GET /api/classes: public callers see accepted classes only. */
export const ClassListQuery = PageQuery.extend({
  q: z.string().trim().max(100).optional(),
  category: z.enum(CATEGORIES).optional(),
  sort: z.enum(CLASS_SORTS).default('newest'),
  /** Admins only; everyone else sees accepted classes. */
  status: z.enum(CLASS_STATUSES).optional(),
});
export type ClassListQuery = z.infer<typeof ClassListQuery>;

/** GET /api/classes/teacher/:email: newest first, every status but archived. */
export const TeacherClassesQuery = PageQuery;
export type TeacherClassesQuery = z.infer<typeof TeacherClassesQuery>;

/** GET /api/classes/:id/stats */
export const ClassStats = z.object({
  enrolledStudents: z.number().int(),
  paidStudents: z.number().int(),
  revenue: z.number(),
  perWeek: z.array(z.object({ week: z.string(), enrollments: z.number().int() })),
});
export type ClassStats = z.infer<typeof ClassStats>;
