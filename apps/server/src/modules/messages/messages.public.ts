/**
 * What other modules may use of messages (decision 015): moderation reads a reported message and
 * hides it (decision 043). This file imports only this module's repository, so moderation may
 * import it without a cycle.
 */
export { findMessageWithThread, hideMessage } from './messages.repository.ts';
