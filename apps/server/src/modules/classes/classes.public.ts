/**
 * What other modules may use of the classes module (decision 015): the class an enrollment copies,
 * the one writer of the catalogue counters, and the columns they may join on. Each function takes
 * the caller's transaction, so an enrollment or a review and its counters commit together. This
 * file imports no other module, so any module may import it without a cycle.
 */
export {
  adjustCounters as adjustClassCounters,
  classExists,
  classJoin,
  findClassForEnrollment,
  hideClasses,
  lockClassesKeyShare,
  restoreClassesOfTeacher,
  type HiddenReason,
  type ClassForEnrollment,
  type CounterChange,
} from './classes.repository.ts';
