import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { ClassSession } from '@skillhive/shared/contracts/content';
import { WEEKLY_SESSIONS_MAX } from '@skillhive/shared/rules/content';
import { WeeklySessionsBody, type WeeklySessionsInput } from '@skillhive/shared/rules/content-forms';
import { errorMessage } from '../../../lib/api-client.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useUnsavedEdits } from '../../../components/ui/leave-guard.tsx';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { TimeZoneField, defaultTimeZone } from '../../../components/ui/time-zone-field.tsx';
import { countOf } from '../../../lib/plural.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { useCreateWeeklySessions, useUpdateSession } from '../api/content.ts';
import { classSectionsQueryOptions, sectionLabel } from '../../sections/api/sections.ts';
import { EditorForm, draftAdded } from './editor-form.tsx';

const sessionResolver = zodResolver(WeeklySessionsBody);

/**
 * Add a session, or edit one (`session` given); the start is a local time in the chosen zone.
 * Adding can repeat it weekly: "Repeat weekly" N adds N drafts at the same local time, one request.
 */
export function SessionForm({
  classId,
  session,
  onDone,
}: {
  classId: string;
  session?: ClassSession;
  onDone?: () => void;
}) {
  const create = useCreateWeeklySessions(classId);
  const update = useUpdateSession(classId);
  const [formError, setFormError] = useState<string | null>(null);
  // Decision 041: with more than one section, the teacher says which one the session belongs to.
  const sections = useQuery(classSectionsQueryOptions(useUserScope(), classId)).data ?? [];
  const sectionOptions = sections
    .map((s, index) => ({ value: s._id, label: sectionLabel(index), open: s.status === 'active' }))
    .filter((option) => option.open || option.value === session?.sectionId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<WeeklySessionsInput, unknown, WeeklySessionsBody>({
    resolver: sessionResolver,
    defaultValues: session
      ? {
          title: session.title,
          startsAt: session.localStart,
          timeZone: session.timeZone,
          durationMinutes: session.durationMinutes,
          meetingUrl: session.hasMeetingUrl ? (session.meetingUrl ?? '') : '',
          location: session.location ?? '',
          sectionId: session.sectionId,
          weeks: 1,
        }
      : {
          title: '',
          startsAt: '',
          timeZone: defaultTimeZone(),
          durationMinutes: 60,
          meetingUrl: '',
          location: '',
          sectionId: '',
          weeks: 1,
        },
  });

  useUnsavedEdits(isDirty);
  const submit = handleSubmit((body) => {
    setFormError(null);
    const onError = (error: unknown) => {
      const fields = (error as { fields?: Record<string, string> }).fields;
      for (const [name, message] of Object.entries(fields ?? {})) {
        if (name in body) setError(name as keyof WeeklySessionsBody, { message });
      }
      setFormError(errorMessage(error, 'The session could not be saved.'));
    };
    if (session) {
      const { weeks: _weeks, ...fields } = body;
      update.mutate(
        { id: session._id, body: fields },
        {
          onSuccess: () => {
            notify.success(session.published ? 'Session saved; enrolled students are told of a new time' : 'Saved');
            onDone?.();
          },
          onError,
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: (added) =>
          draftAdded(
            added.length === 1
              ? 'Session added as a draft'
              : `${countOf(added.length, 'session', 'sessions')} added as drafts`,
            reset,
          )(),
        onError,
      });
    }
  });

  const alert = formError ?? errors.root?.message;
  return (
    <EditorForm
      label={session ? 'Edit session' : 'Add a session'}
      onSubmit={submit}
      alert={alert}
      actions={
        <div className="flex flex-wrap gap-2">
          <BusyButton type="submit" busy={create.isPending || update.isPending} className="btn-primary btn-sm">
            {session ? 'Save session' : 'Add session'}
          </BusyButton>
          {onDone ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
              Cancel
            </button>
          ) : null}
        </div>
      }
    >
      <TextField label="Session title" error={errors.title?.message} {...register('title')} />
      {sectionOptions.length > 1 ? (
        <SelectField
          label="Section"
          options={sectionOptions}
          error={errors.sectionId?.message}
          {...register('sectionId')}
        />
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Starts at" type="datetime-local" error={errors.startsAt?.message} {...register('startsAt')} />
        <TimeZoneField error={errors.timeZone?.message} {...register('timeZone')} />
      </div>
      {session ? null : (
        <TextField
          label="Repeat weekly (number of sessions)"
          type="number"
          inputMode="numeric"
          min={1}
          max={WEEKLY_SESSIONS_MAX}
          hint={`1 adds this session alone; 6 adds it and the same time for the next five weeks (at most ${WEEKLY_SESSIONS_MAX}).`}
          error={errors.weeks?.message}
          {...register('weeks')}
        />
      )}
      <TextField
        label="Duration (minutes)"
        type="number"
        inputMode="numeric"
        min={1}
        max={1440}
        error={errors.durationMinutes?.message}
        {...register('durationMinutes')}
      />
      <TextField
        label="Meeting link"
        type="url"
        placeholder="https://"
        hint="Students who paid see it shortly before the start."
        error={errors.meetingUrl?.message}
        {...register('meetingUrl')}
      />
      <TextField label="Or a location" error={errors.location?.message} {...register('location')} />
    </EditorForm>
  );
}
