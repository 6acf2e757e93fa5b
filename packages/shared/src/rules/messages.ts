/**
 * Every message a person reads from a form or a refusal, written once for the server and the web
 * app (spec §5 wording where the spec has one). No Zod here: the web loads it on any page.
 */

import { REASON_MAX, REVIEW_DETAILS_MAX } from './constants.ts';

/** The messages of spec §5, written once for the server and the web forms. */
export const AUTH_MESSAGES = {
  nameRequired: 'Name is required',
  photoRequired: 'Photo URL is required',
  photoInvalid: 'Enter a valid photo URL (http:// or https://)',
  phoneRequired: 'Phone number is required',
  phoneMin: 'Must be at least 11 digits',
  phoneMax: 'Must be at most 20 digits',
  phonePattern: 'Must be between 11 and 20 digits',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be 6 characters',
  passwordMax: 'Password must be at most 20 characters',
  passwordPattern: 'Password must have one Upper case one lower case, one number and one special characters',
  invalidCredentials: 'Invalid email or password',
  currentPasswordRequired: 'Current password is required',
} as const;

/** Deleting your own account (accounts and e-mail issue §4). */
export const ACCOUNT_MESSAGES = {
  passwordRequired: 'Enter your password to delete your account',
  passwordField: 'Enter your password',
  wrongPassword: 'The password is not right',
  signInAgain: 'Your account has no password: sign in again, then delete it within 15 minutes',
} as const;

export const CLASS_MESSAGES = {
  titleRequired: 'Title is required',
  priceRequired: 'Price is required',
  priceRange: 'Price must be between 0.50 and 10,000',
  priceCents: 'Price can have at most two decimals',
  descriptionRequired: 'Description is required',
  imageRequired: 'Image is required',
  categoryRequired: 'Category is required',
} as const;

export const TEACH_MESSAGES = {
  experienceRequired: 'Experience is required',
  titleRequired: 'Title is required',
  categoryRequired: 'Category is required',
} as const;

export const REVIEW_MESSAGES = {
  ratingRequired: 'Rating is required',
  ratingWhole: 'Rating must be a whole number',
  ratingRange: 'Rating must be 1 to 5',
  detailsTooLong: `Review must be at most ${REVIEW_DETAILS_MAX} characters`,
  notPaid: 'Only students who paid for this class can review it',
  classNotFound: 'Class not found',
} as const;

/** The optional reason of a rejection (an application, a class, a class's changes). */
export const REASON_MESSAGES = {
  tooLong: `The reason must be at most ${REASON_MAX} characters`,
} as const;

/** The card form's and the payment's messages, shared by the web form and the test gateway. */
export const PAYMENT_MESSAGES = {
  cardNumber: 'Enter a valid card number',
  expiry: 'Enter a valid expiry date',
  expired: 'Your card has expired',
  cvc: 'Enter a valid CVC',
  emptyCart: 'Your cart is empty',
  cartTooLarge: 'Your cart has too many classes for one payment; please pay for some of them first',
  /** Stripe's own wording for its test decline cards. */
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  /** A number that passes the checks but is not one of the gateway's test cards. */
  notATestCard: 'Your card was declined. This is test mode: use a test card such as 4242 4242 4242 4242.',
  intentNotFound: 'Payment not found',
  intentNotYours: 'This payment belongs to someone else',
  intentCanceled: 'This payment was canceled; please start again',
  noActionRequired: 'This payment is not waiting for authentication',
  notSucceeded: 'The payment has not succeeded',
  cartChanged: 'Your cart has changed since this payment was started; please review it and pay again',
  cartMismatch: 'The classes in this request do not match the payment',
  amountMismatch: 'The amount paid does not match the classes in the cart',
  alreadyRecordedElsewhere: 'This transaction is already recorded for other classes',
  /** Shown on a cart line whose class can no longer be paid for (deleted, rejected or in review). */
  classUnavailable: 'This class is no longer available',
  /** Every pending line belongs to a class that can no longer be paid for (decision 010). */
  nothingPayable: 'No class in your cart can be paid for: the classes are no longer available',
  notPayable: 'A class in this payment is no longer available',
  reservedElsewhere: 'These classes are being paid in another payment; please start again',
  paymentInProgress: 'A payment for these classes is still being processed; please wait a moment and try again',
  refunded: 'Your cart changed while you were paying, so the charge was refunded in full; please review your cart',
} as const;

export const ENROLLMENT_MESSAGES = {
  classNotFound: 'Class not found',
  classNotOpen: 'This class is not open for enrolment',
  ownClass: 'You cannot enrol in your own class',
  notFound: 'Enrolment not found',
  notYours: 'You can only remove your own enrolments',
  alreadyPaid: 'A paid enrolment cannot be removed',
  /** Shown on a cart line whose class can no longer be paid for. */
  unavailable: PAYMENT_MESSAGES.classUnavailable,
} as const;

export const UPLOAD_MESSAGES = {
  missing: 'Choose an image to upload',
  tooLarge: 'The image must be at most 5 MB',
  tooManyPixels: 'The image must be at most 40 megapixels',
  unsupported: 'Upload a JPEG, PNG, WebP, GIF or AVIF image',
  unreadable: 'The image could not be read',
  /** Per-user storage quota (UPLOAD_QUOTA_MB) used up. */
  quotaExceeded:
    'You have used all your image storage. Images that no class or profile uses are removed after a day; please try again later.',
  /** Per-user upload rate limit (RATE_LIMIT_UPLOADS_PER_MINUTE). */
  rateLimited: 'You are uploading images too quickly. Please wait a minute and try again.',
  /** The server's image-processing queue is full. */
  busy: 'The server is busy processing other images. Please try again in a few seconds.',
} as const;
