import { z } from 'zod';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from '../rules/constants.ts';
import { PageQuery } from './common.ts';

/** A report as an admin sees it in the queue (decision 043). */
export const AdminReport = z.object({
  _id: z.string(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string(),
  /** What the target is called now (a class title, a reviewer's name and text, a user's name); null once it is gone. */
  targetLabel: z.string().nullable(),
  /** Where an admin can look at it (a public path), when it has one. */
  targetPath: z.string().nullable(),
  /** The person responsible for the target: the class's teacher, the review's author, the user. */
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  ownerSuspended: z.boolean(),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  reporterId: z.string().nullable(),
  reporterName: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  /** One of REPORT_ACTIONS once decided (a plain string: the API document's converter drops null from a nullable enum). */
  action: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type AdminReport = z.infer<typeof AdminReport>;

/** GET /api/admin/reports: open ones first, oldest first (a queue); ?status= narrows it. */
export const AdminReportListQuery = PageQuery.extend({
  status: z.enum(REPORT_STATUSES).optional(),
});
export type AdminReportListQuery = z.infer<typeof AdminReportListQuery>;

/** POST /api/admin/reports/:id/decision: how many open reports of the same target were closed with it. */
export const DecideReportResponse = z.object({ modifiedCount: z.number().int() });
export type DecideReportResponse = z.infer<typeof DecideReportResponse>;
