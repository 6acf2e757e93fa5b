export * from './auth.ts';
export * from './domain.ts';
