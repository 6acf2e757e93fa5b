import { ThreadView } from '../../../features/messages/components/thread-view.tsx';
import { ReportButton } from '../../../features/moderation/components/report-button.tsx';
import { useIdParam } from './use-id-param.ts';

/** /dashboard/messages/:id: one conversation (decision 045); its messages can be reported (decision 043). */
export function Component() {
  const id = useIdParam();
  return <ThreadView key={id} threadId={id} renderReport={(target) => <ReportButton target={target} />} />;
}
