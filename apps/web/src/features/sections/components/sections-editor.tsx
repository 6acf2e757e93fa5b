import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TeacherSection } from '@skillhive/shared/contracts/sections';
import { SectionFormBody, type SectionFormInput } from '@skillhive/shared/rules/section-forms';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { LeaveGuard, useUnsavedEdits } from '../../../components/ui/leave-guard.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { TimeZoneField, defaultTimeZone } from '../../../components/ui/time-zone-field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { formatSessionStart } from '../../../lib/session-time.ts';
import { SectionChanges } from './section-changes.tsx';
import { classSectionsQueryOptions, sectionLabel, useCreateSection, useUpdateSection } from '../api/sections.ts';

/**
 * The teacher's "Sections" editor on my-class/:id (decision 041): each run of the class with its
 * time zone, seats and enrollment window. A class's first session makes its first section.
 */
export function SectionsEditor({
  classId,
  renderQueue,
}: {
  classId: string;
  /** Under each section with a seat limit: its waiting list (the waitlists feature, decision 051). */
  renderQueue?: ((sectionId: string, label: string) => ReactNode) | undefined;
}) {
  const query = useQuery(classSectionsQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby="sections-editor-heading" className="flex flex-col gap-4">
      <h2 id="sections-editor-heading" className="text-xl font-semibold">
        Sections
      </h2>
      <p className="text-sm text-muted">
        A section is one run of this class with its own sessions, seats and enrollment window. Students choose a section
        when they enroll; a new section needs no new review.
      </p>
      <QueryState query={query} what="the sections">
        {(sections) => (
          <LeaveGuard>
            <SectionList classId={classId} sections={sections} renderQueue={renderQueue} />
          </LeaveGuard>
        )}
      </QueryState>
    </section>
  );
}

function SectionList({
  classId,
  sections,
  renderQueue,
}: {
  classId: string;
  sections: TeacherSection[];
  renderQueue?: ((sectionId: string, label: string) => ReactNode) | undefined;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      {sections.length === 0 ? (
        <p className="text-muted">No sections yet: this class is self-paced until it has one or a session.</p>
      ) : null}
      <ol className="grid gap-2 lg:grid-cols-2" aria-label="Sections">
        {sections.map((section, index) => (
          <li
            key={section._id}
            className="rounded-box border border-base-300 bg-base-100 p-3"
            data-testid="section-item"
          >
            {editing === section._id ? (
              <SectionForm classId={classId} section={section} onDone={() => setEditing(null)} />
            ) : (
              <SectionSummary
                classId={classId}
                section={section}
                label={sectionLabel(index)}
                onEdit={() => setEditing(section._id)}
              />
            )}
            {section.capacity !== null && renderQueue ? renderQueue(section._id, sectionLabel(index)) : null}
          </li>
        ))}
      </ol>
      <details className="rounded-box border border-base-300 p-3">
        <summary className="cursor-pointer font-medium">Add a section</summary>
        <div className="pt-3">
          <SectionForm classId={classId} />
        </div>
      </details>
    </div>
  );
}

function SectionSummary({
  classId,
  section,
  label,
  onEdit,
}: {
  classId: string;
  section: TeacherSection;
  label: string;
  onEdit: () => void;
}) {
  const seats = section.capacity === null ? 'no seat limit' : `${section.enrolled} of ${section.capacity} seats taken`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold">{label}</span>
        <span className={`badge ${section.status === 'active' ? 'badge-success' : 'badge-ghost'}`}>
          {section.status === 'active' ? 'Open' : 'Cancelled'}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">Time zone</dt>
        <dd>{section.timeZone.replace(/_/g, ' ')}</dd>
        <dt className="text-muted">Seats</dt>
        <dd>
          {seats}
          {section.minimum !== null ? ` (runs with at least ${section.minimum})` : ''}
        </dd>
        <dt className="text-muted">Sessions</dt>
        <dd>
          {section.sessionCount}
          {section.firstSessionAt ? `, first on ${formatSessionStart(section.firstSessionAt)}` : ''}
        </dd>
        <dt className="text-muted">Enrollment</dt>
        <dd>
          {section.enrollOpensAt ? `from ${formatSessionStart(section.enrollOpensAt)} ` : ''}
          {section.enrollClosesAt ? `until ${formatSessionStart(section.enrollClosesAt)}` : 'open until it starts'}
        </dd>
      </dl>
      {section.status === 'active' ? (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm btn-outline" onClick={onEdit} aria-label={`Edit ${label}`}>
            Edit
          </button>
          <SectionChanges classId={classId} section={section} label={label} />
        </div>
      ) : (
        <p className="text-sm text-muted">
          {section.cancelReason === 'minimum_not_met'
            ? 'Cancelled: it had fewer students than its minimum at its deadline. Its students were refunded; add a new section to propose another date.'
            : 'Cancelled. Its students were refunded; add a new section to propose another date.'}
        </p>
      )}
    </div>
  );
}

const sectionResolver = zodResolver(SectionFormBody);

/** Add a section, or edit one (`section` given); the window is local times in the section's zone. */
function SectionForm({ classId, section, onDone }: { classId: string; section?: TeacherSection; onDone?: () => void }) {
  const create = useCreateSection(classId);
  const update = useUpdateSection(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<SectionFormInput, unknown, SectionFormBody>({
    resolver: sectionResolver,
    defaultValues: section
      ? {
          timeZone: section.timeZone,
          capacity: section.capacity ?? '',
          minimum: section.minimum ?? '',
          enrollOpensAt: section.localEnrollOpensAt,
          enrollClosesAt: section.localEnrollClosesAt,
        }
      : { timeZone: defaultTimeZone(), capacity: 20, minimum: '', enrollOpensAt: '', enrollClosesAt: '' },
  });
  useUnsavedEdits(isDirty);

  const submit = handleSubmit((body) => {
    setFormError(null);
    const onError = (error: unknown) => {
      const fields = (error as { fields?: Record<string, string> }).fields;
      for (const [name, message] of Object.entries(fields ?? {})) {
        if (name in body) setError(name as keyof SectionFormBody, { message });
      }
      setFormError(errorMessage(error, 'The section could not be saved.'));
    };
    if (section) {
      update.mutate(
        { id: section._id, body },
        {
          onSuccess: () => {
            notify.success('Section saved');
            onDone?.();
          },
          onError,
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: () => {
          notify.success('Section added');
          reset();
        },
        onError,
      });
    }
  });

  const alert = formError ?? errors.root?.message;
  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3"
      aria-label={section ? 'Edit section' : 'Add a section'}
    >
      <TimeZoneField error={errors.timeZone?.message} {...register('timeZone')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Maximum seats"
          type="number"
          inputMode="numeric"
          min={1}
          error={errors.capacity?.message}
          {...register('capacity')}
        />
        <TextField
          label="Minimum seats (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          hint="The fewest students this section needs to run."
          error={errors.minimum?.message}
          {...register('minimum')}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Enrollment opens (optional)"
          type="datetime-local"
          error={errors.enrollOpensAt?.message}
          {...register('enrollOpensAt')}
        />
        <TextField
          label="Enrollment deadline (optional)"
          type="datetime-local"
          hint="Before the first session."
          error={errors.enrollClosesAt?.message}
          {...register('enrollClosesAt')}
        />
      </div>
      {alert ? (
        <p role="alert" className="text-sm font-medium text-error">
          {alert}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <BusyButton type="submit" busy={create.isPending || update.isPending} className="btn-primary btn-sm">
          {section ? 'Save section' : 'Add section'}
        </BusyButton>
        {onDone ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
