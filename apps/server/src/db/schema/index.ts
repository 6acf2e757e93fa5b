export * from './auth.ts';
export * from './domain.ts';
export * from './mail.ts';
