/**
 * What other modules may read of a class's sessions (decision 015): the earnings ledger releases a
 * teacher's share per session held (decision 039).
 */
export { listSessionEndsOfClasses } from './content.repository.ts';

/** The sections module reschedules a section's sessions together (decision 052). */
export { listSessionsOfSection, shiftSessionsOfSection } from './section-moves.ts';
export type { SessionRow } from './content.repository.ts';
