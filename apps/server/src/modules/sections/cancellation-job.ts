import { createIntervalJob } from '../../lib/interval-job.ts';
import { cancelSectionsUnderMinimum, type SectionChangesDeps } from './section-changes.service.ts';

/**
 * The job that cancels sections under their minimum at their deadline (decision 052): every
 * SECTION_CANCEL_INTERVAL_SECONDS (0 disables it). Safe on several instances: a section is
 * cancelled by one transaction only (section-changes.service.ts).
 */
export function createSectionCancellationJob(options: SectionChangesDeps & { intervalMs: number }) {
  const runOnce = () => cancelSectionsUnderMinimum(options);
  return {
    /** One pass now; answers how many sections it cancelled (tests call it with their clock). */
    runOnce,
    ...createIntervalJob({
      intervalMs: options.intervalMs,
      run: runOnce,
      failure: 'cancelling sections under their minimum failed',
      log: options.log,
    }),
  };
}
