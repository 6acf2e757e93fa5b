import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClassMaterial, ClassSession, PublishedDrafts } from '@skillhive/shared/contracts/content';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { countOf } from '../../../lib/plural.ts';
import { notify } from '../../../lib/toast.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classSectionsQueryOptions, sectionLabel } from '../../sections/api/sections.ts';
import { usePublishDrafts } from '../api/content.ts';

/** "6 sessions and 1 material", "2 sessions", "nothing". */
export function draftsText({ sessions, materials }: PublishedDrafts): string {
  const parts = [
    sessions > 0 ? countOf(sessions, 'session', 'sessions') : null,
    materials > 0 ? countOf(materials, 'material', 'materials') : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : 'nothing';
}

/**
 * "Publish all" (the teacher's editor): every draft session and material of the class, or, when
 * the class runs in several sections, one section's draft sessions. Asked first, naming how many;
 * the answer says how many were published.
 */
export function PublishAll({
  classId,
  sessions,
  materials,
}: {
  classId: string;
  sessions: ClassSession[];
  materials: ClassMaterial[];
}) {
  const selectId = useId();
  const publish = usePublishDrafts(classId);
  const [confirm, dialog] = useConfirm();
  const [sectionId, setSectionId] = useState('');
  const [result, setResult] = useState<string | null>(null);
  // With drafts in more than one section, the teacher may publish one section's sessions only.
  const sections = (useQuery(classSectionsQueryOptions(useUserScope(), classId)).data ?? [])
    .map((section, index) => ({ id: section._id, label: sectionLabel(index) }))
    .filter((section) => sessions.some((s) => s.sectionId === section.id && !s.published));
  const drafts: PublishedDrafts = sectionId
    ? { sessions: sessions.filter((s) => !s.published && s.sectionId === sectionId).length, materials: 0 }
    : {
        sessions: sessions.filter((s) => !s.published).length,
        materials: materials.filter((m) => !m.published).length,
      };
  const count = drafts.sessions + drafts.materials;

  const run = async () => {
    setResult(null);
    const answer = await confirm({
      title: `Publish ${draftsText(drafts)}?`,
      text: 'Students who paid for this class see them at once, and the session times show on the class page once the class is approved.',
      confirmButtonText: 'Yes, publish',
    });
    if (answer !== 'confirmed') return;
    publish.mutate(
      { sectionId },
      {
        onSuccess: (done) => {
          const message = `Published ${draftsText(done)}.`;
          setResult(message);
          setSectionId('');
          notify.success(message);
        },
        onError: (error) => notify.error(errorMessage(error, 'The drafts could not be published.')),
      },
    );
  };

  return (
    <div className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-200 p-3 sm:flex-row sm:flex-wrap sm:items-end">
      <p className="grow text-sm">
        {count === 0
          ? 'Everything is published.'
          : `${draftsText(drafts)} ${count === 1 ? 'is a draft' : 'are drafts'}: students do not see ${count === 1 ? 'it' : 'them'} yet.`}
      </p>
      {sections.length > 1 ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium">
            Publish
          </label>
          <select
            id={selectId}
            className="select select-sm"
            value={sectionId}
            onChange={(event) => setSectionId(event.target.value)}
          >
            <option value="">Every draft of the class</option>
            {sections.map((section) => (
              <option key={section.id} value={section.id}>
                {`${section.label} sessions only`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <BusyButton
        busy={publish.isPending}
        disabled={count === 0}
        className="btn-primary btn-sm"
        onClick={() => void run()}
      >
        Publish all
      </BusyButton>
      <p role="status" className="text-sm font-medium sm:basis-full">
        {result}
      </p>
      {dialog}
    </div>
  );
}
