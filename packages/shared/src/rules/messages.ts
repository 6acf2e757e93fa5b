/**
 * Every message a person reads from a form or a refusal, written once for the server and the web
 * app (spec §5 wording where the spec has one); the card and payment messages sit with the card
 * checks (`cards.ts`). No Zod here: the web loads it on any page.
 */

import { MESSAGE_BODY_MAX, REASON_MAX, REPORT_DETAILS_MAX, REVIEW_DETAILS_MAX, REVIEW_REPLY_MAX } from './constants.ts';

/** What any text field says about characters it refuses (control characters, hostile callbacks). */
export const TEXT_MESSAGES = {
  /** A single-line field (a name, a title, a code) holds one line of printable text. */
  singleLine: 'Use one line of text, without line breaks, tabs or other control characters',
  /** A multi-line field (a description, a reason) may break lines, but holds no other control character. */
  controlCharacters: 'Remove the control characters: only line breaks and tabs are allowed here',
  /** A callback or redirect the identity endpoints are given (isLocalCallback). */
  callback: 'The callback must be a path on this site',
} as const;

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

/**
 * The `?error=` a change-of-address link comes back with when another account registered the new
 * address between the request and the click (the identity gate answers it instead of a 500).
 */
export const EMAIL_TAKEN_ERROR = 'EMAIL_TAKEN';

/** Deleting your own account (decision 014); following a change-of-address link. */
export const ACCOUNT_MESSAGES = {
  /** The profile's words for EMAIL_TAKEN_ERROR. */
  changeEmailTaken:
    'Your e-mail address was not changed: another account started using that address after you asked. Choose another address below.',
  /** The profile's words for any other refused change-of-address link. */
  changeEmailLinkFailed:
    'The link to change your e-mail address did not work: it may have expired or been used already. Ask for a new one below.',
  passwordRequired: 'Enter your password to delete your account',
  passwordField: 'Enter your password',
  wrongPassword: 'The password is not right',
  signInAgain: 'Your account has no password: sign in again, then delete it within 15 minutes',
  emailPasswordRequired: 'Enter your password to change your e-mail address',
  emailSignInAgain: 'Your account has no password: sign in again, then change your e-mail address within 15 minutes',
  notMeLinkFailed: 'This link did not work: it may have expired or been used already.',
} as const;

export const CLASS_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be at most 120 characters',
  priceRequired: 'Price is required',
  priceNumber: 'Price must be a number, like 49 or 49.99',
  priceRange: 'Price must be between 0.50 and 10,000',
  priceCents: 'Price can have at most two decimals',
  descriptionRequired: 'Description is required',
  imageRequired: 'Image is required',
  imageTooLong: 'The image address must be at most 2048 characters',
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
  notVerified: 'You can review this class once you have attended a session or finished a material',
  classNotFound: 'Class not found',
  replyRequired: 'Write a reply',
  replyTooLong: `A reply must be at most ${REVIEW_REPLY_MAX} characters`,
  replyExists: 'You already replied to this review: edit your reply instead',
  replyHidden: 'An admin hid your reply to this review after a report, so it cannot be edited or replaced',
} as const;

/** The optional reason of a rejection (an application, a class, a class's changes). */
export const REASON_MESSAGES = {
  tooLong: `The reason must be at most ${REASON_MAX} characters`,
} as const;

export const ENROLLMENT_MESSAGES = {
  classNotFound: 'Class not found',
  classNotOpen: 'This class is not open for enrollment',
  ownClass: 'You cannot enroll in your own class',
  notFound: 'Enrollment not found',
  notYours: 'You can only remove your own enrollments',
  alreadyPaid: 'A paid enrollment cannot be removed',
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
  /** Per-teacher storage quota of class materials' files (MATERIAL_QUOTA_MB) used up. */
  materialQuotaExceeded:
    'You have used all your storage for class files. Delete materials you no longer need; their files are removed after a day.',
  /** Per-user upload rate limit, for class materials' files. */
  materialRateLimited: 'You are uploading files too quickly. Please wait a minute and try again.',
  /** The server's image-processing queue is full. */
  busy: 'The server is busy processing other images. Please try again in a few seconds.',
} as const;

/** Reports and suspensions (decision 043). */
export const REPORT_MESSAGES = {
  reasonRequired: 'Choose a reason',
  detailsTooLong: `Details must be at most ${REPORT_DETAILS_MAX} characters`,
  ownContent: 'You cannot report yourself or your own content',
  alreadyReported: 'You already reported this; an admin will look at it',
  notOpen: 'This report was already decided',
  cannotHide: 'Only a class, a review or a message can be hidden; warn or suspend a user',
  cannotSuspendAdmin: 'An admin cannot be suspended; remove their admin role first',
  notSuspended: 'This account is not suspended',
  suspended: 'This account is suspended',
} as const;

/** Messages between a person and a class's teacher (decision 045). */
/** What announcements say (a teacher to a class's paid students). */
export const ANNOUNCEMENT_MESSAGES = {
  bodyRequired: 'Write the announcement',
  bodyTooLong: 'An announcement must be at most 5000 characters',
  section: 'Choose one of the class’s sections, or the whole class',
  noStudents: 'Nobody has paid for this yet: an announcement goes to the students who did',
} as const;

export const MESSAGE_MESSAGES = {
  bodyRequired: 'Write a message',
  bodyTooLong: `A message must be at most ${MESSAGE_BODY_MAX} characters`,
  ownClass: 'You teach this class: your students write to you here',
  recipientUnavailable: 'This person cannot receive messages right now',
  rateLimited: 'You sent many messages just now; try again later',
} as const;
