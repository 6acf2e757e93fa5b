import type { ReportAction, ReportReason, ReportTargetType } from '@skillhive/shared/rules/constants';

/** How the report form and the queue name each reason (decision 043). */
export const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam or advertising',
  abuse: 'Harassment or abuse',
  inappropriate: 'Inappropriate content',
  'off-platform-payment': 'Asks to pay outside SkillHive',
  scam: 'Scam or fraud',
  other: 'Something else',
};

export const TARGET_LABELS: Record<ReportTargetType, string> = {
  class: 'Class',
  review: 'Review',
  user: 'User',
  message: 'Message',
  reply: 'Reply to a review',
};

export const ACTION_LABELS: Record<ReportAction, string> = {
  dismiss: 'Dismissed',
  hide: 'Hidden',
  warn: 'Warned',
  suspend: 'Suspended',
};
