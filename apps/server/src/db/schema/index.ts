// Every table, for drizzle-kit and the database client. Each file is owned by one module
// (decision 015); modules import their own file, never this index.
export * from './audit.ts';
export * from './auth.ts';
export * from './checkout.ts';
export * from './classes.ts';
export * from './content.ts';
export * from './coupons.ts';
export * from './earnings.ts';
export * from './enrollments.ts';
export * from './gateways.ts';
export * from './mail.ts';
export * from './messages.ts';
export * from './moderation.ts';
export * from './notifications.ts';
export * from './refunds.ts';
export * from './reviews.ts';
export * from './sections.ts';
export * from './teacher-requests.ts';
export * from './uploads.ts';
export * from './users.ts';
export * from './waitlists.ts';
