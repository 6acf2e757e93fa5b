import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ClassSession } from '@skillhive/shared/contracts/content';
import { SessionFormBody } from '@skillhive/shared/rules/content-forms';
import { errorMessage } from '../../../lib/api-client.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useUnsavedEdits } from '../../../components/ui/leave-guard.tsx';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { useCreateSession, useUpdateSession } from '../api/content.ts';
import { timeZoneOptions, viewerTimeZone } from '../../../lib/session-time.ts';
import { classSectionsQueryOptions, sectionLabel } from '../../sections/api/sections.ts';
import { EditorForm, draftAdded } from './editor-form.tsx';

type SessionFormInput = z.input<typeof SessionFormBody>;

const sessionResolver = zodResolver(SessionFormBody);

/** Add a session, or edit one (`session` given); the start is a local time in the chosen zone. */
export function SessionForm({
  classId,
  session,
  onDone,
}: {
  classId: string;
  session?: ClassSession;
  onDone?: () => void;
}) {
  const create = useCreateSession(classId);
  const update = useUpdateSession(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneOptions().map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), []);
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
  } = useForm<SessionFormInput, unknown, SessionFormBody>({
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
        }
      : {
          title: '',
          startsAt: '',
          timeZone: viewerTimeZone(),
          durationMinutes: 60,
          meetingUrl: '',
          location: '',
          sectionId: '',
        },
  });

  useUnsavedEdits(isDirty);
  const submit = handleSubmit((body) => {
    setFormError(null);
    const onError = (error: unknown) => {
      const fields = (error as { fields?: Record<string, string> }).fields;
      for (const [name, message] of Object.entries(fields ?? {})) {
        if (name in body) setError(name as keyof SessionFormBody, { message });
      }
      setFormError(errorMessage(error, 'The session could not be saved.'));
    };
    if (session) {
      update.mutate(
        { id: session._id, body },
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
        onSuccess: draftAdded('Session added as a draft', reset),
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
        <SelectField label="Time zone" options={zones} error={errors.timeZone?.message} {...register('timeZone')} />
      </div>
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
