import { useId, useMemo, useState, type FormEventHandler, type ReactNode } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ClassMaterial, ClassSession } from '@skillhive/shared/contracts/content';
import { ACCEPTED_MATERIAL_TYPES, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { LinkMaterialFormBody, MaterialFileFormBody, SessionFormBody } from '@skillhive/shared/rules/content-forms';
import { errorMessage } from '../../../lib/api-client.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { CONFIRM_PRESETS, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { LeaveGuard, useUnsavedEdits } from '../../../components/ui/leave-guard.tsx';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import {
  classContentQueryOptions,
  useCreateLinkMaterial,
  useCreateSession,
  useDeleteItem,
  usePublishItem,
  useReorder,
  useUpdateSession,
  useUploadMaterial,
  type ContentKind,
} from '../api/content.ts';
import {
  formatBytes,
  formatDuration,
  formatSessionStart,
  timeZoneOptions,
  viewerTimeZone,
} from '../../../lib/session-time.ts';
import { classSectionsQueryOptions, sectionLabel } from '../../sections/api/sections.ts';

/**
 * The teacher's "Sessions and materials" editor on my-class/:id (decision 021): add, edit, reorder,
 * publish and delete sessions and materials; everything starts as a draft students do not see.
 */
export function ContentEditor({ classId }: { classId: string }) {
  const query = useQuery(classContentQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby="content-editor-heading" className="flex flex-col gap-4">
      <h2 id="content-editor-heading" className="text-xl font-semibold">
        Sessions and materials
      </h2>
      <p className="text-sm text-muted">
        New items are drafts: students who paid see them once you publish them. Times show in your time zone.
      </p>
      <QueryState query={query} what="the sessions and materials">
        {(content) => (
          // A form with edits not yet added or saved asks before a link takes the teacher away.
          <LeaveGuard>
            <div className="grid gap-6 lg:grid-cols-2">
              <SessionsPart classId={classId} sessions={content.sessions} />
              <MaterialsPart classId={classId} materials={content.materials} />
            </div>
          </LeaveGuard>
        )}
      </QueryState>
    </section>
  );
}

function SessionsPart({ classId, sessions }: { classId: string; sessions: ClassSession[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Sessions ({sessions.length})</h3>
      {sessions.length === 0 ? <p className="text-muted">No sessions yet.</p> : null}
      <ol className="flex flex-col gap-2" aria-label="Sessions">
        {sessions.map((session, index) =>
          editing === session._id ? (
            <li key={session._id} className="rounded-box border border-base-300 p-3">
              <SessionForm classId={classId} session={session} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <ItemRow
              key={session._id}
              classId={classId}
              kind="session"
              id={session._id}
              title={session.title}
              published={session.published}
              ids={sessions.map((s) => s._id)}
              index={index}
              onEdit={() => setEditing(session._id)}
            >
              <time dateTime={session.startsAt}>{formatSessionStart(session.startsAt)}</time>
              {' · '}
              {formatDuration(session.durationMinutes)}
              {' · '}
              {session.location ?? 'Online'}
            </ItemRow>
          ),
        )}
      </ol>
      <AddItem summary="Add a session">
        <SessionForm classId={classId} />
      </AddItem>
    </div>
  );
}

/** A closed "add" section under a list: the form opens when its summary is pressed. */
function AddItem({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="rounded-box border border-base-300 p-3">
      <summary className="cursor-pointer font-medium">{summary}</summary>
      <div className="pt-3">{children}</div>
    </details>
  );
}

function MaterialsPart({ classId, materials }: { classId: string; materials: ClassMaterial[] }) {
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Materials ({materials.length})</h3>
      {materials.length === 0 ? <p className="text-muted">No materials yet.</p> : null}
      <ol className="flex flex-col gap-2" aria-label="Materials">
        {materials.map((material, index) => (
          <ItemRow
            key={material._id}
            classId={classId}
            kind="material"
            id={material._id}
            title={material.title}
            published={material.published}
            ids={materials.map((m) => m._id)}
            index={index}
          >
            {material.kind === 'file' ? (
              <a href={material.url} className="link" download>
                {material.fileName} {formatBytes(material.bytes)}
              </a>
            ) : (
              <a href={material.url} className="link break-all" target="_blank" rel="noreferrer noopener">
                {material.url}
              </a>
            )}
          </ItemRow>
        ))}
      </ol>
      <AddItem summary="Upload a PDF or an image">
        <UploadForm classId={classId} />
      </AddItem>
      <AddItem summary="Add a link">
        <LinkForm classId={classId} />
      </AddItem>
    </div>
  );
}

/** One session or material with its actions; moving swaps it with its neighbour. */
function ItemRow(props: {
  classId: string;
  kind: ContentKind;
  id: string;
  title: string;
  published: boolean;
  ids: string[];
  index: number;
  onEdit?: () => void;
  children: ReactNode;
}) {
  const { classId, kind, id, title, published, ids, index } = props;
  const titleId = useId();
  const publish = usePublishItem(classId);
  const remove = useDeleteItem(classId);
  const reorder = useReorder(classId);
  const [confirm, dialog] = useConfirm();
  const fail = (what: string) => (error: unknown) => notify.error(errorMessage(error, `Could not ${what}.`));

  const move = (by: -1 | 1) => {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    reorder.mutate({ kind, ids: next }, { onError: fail('change the order') });
  };
  const busy = publish.isPending || remove.isPending || reorder.isPending;
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3"
      data-testid={`${kind}-item`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id={titleId} className="font-semibold break-words">
          {title}
        </span>
        <span className={`badge ${published ? 'badge-success' : 'badge-ghost'}`}>
          {published ? 'Published' : 'Draft'}
        </span>
      </div>
      <p className="text-sm break-words text-muted">{props.children}</p>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          busy={publish.isPending}
          disabled={busy}
          className={`btn-sm ${published ? 'btn-outline' : 'btn-primary'}`}
          aria-describedby={titleId}
          onClick={() =>
            publish.mutate(
              { kind, id, published: !published },
              {
                onSuccess: () => notify.success(published ? 'Back to draft' : 'Published'),
                onError: fail('publish it'),
              },
            )
          }
        >
          {published ? 'Unpublish' : 'Publish'}
        </BusyButton>
        {props.onEdit ? (
          <button type="button" className="btn btn-sm btn-outline" aria-describedby={titleId} onClick={props.onEdit}>
            Edit
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={busy || index === 0}
          aria-describedby={titleId}
          onClick={() => move(-1)}
        >
          Move up
        </button>
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={busy || index === ids.length - 1}
          aria-describedby={titleId}
          onClick={() => move(1)}
        >
          Move down
        </button>
        <BusyButton
          busy={remove.isPending}
          disabled={busy}
          className="btn-sm btn-ghost text-error"
          aria-label={`Delete ${title}`}
          onClick={() =>
            void confirm(CONFIRM_PRESETS.delete).then((result) => {
              if (result === 'confirmed') remove.mutate({ kind, id }, { onError: fail('delete it') });
            })
          }
        >
          Delete
        </BusyButton>
      </div>
      {dialog}
    </li>
  );
}

type SessionFormInput = z.input<typeof SessionFormBody>;

const sessionResolver = zodResolver(SessionFormBody);

/** Add a session, or edit one (`session` given); the start is a local time in the chosen zone. */
function SessionForm({ classId, session, onDone }: { classId: string; session?: ClassSession; onDone?: () => void }) {
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

type LinkFormInput = z.input<typeof LinkMaterialFormBody>;

const linkResolver = zodResolver(LinkMaterialFormBody);

function LinkForm({ classId }: { classId: string }) {
  const create = useCreateLinkMaterial(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<LinkFormInput, unknown, LinkMaterialFormBody>({
    resolver: linkResolver,
    defaultValues: { title: '', url: '' },
  });
  useUnsavedEdits(isDirty);
  const submit = handleSubmit((body) => {
    setFormError(null);
    create.mutate(body, {
      onSuccess: draftAdded('Link added as a draft', reset),
      onError: (error) => setFormError(errorMessage(error, 'The link could not be added.')),
    });
  });
  const alert = formError ?? errors.root?.message;
  return (
    <EditorForm
      label="Add a link"
      onSubmit={submit}

      alert={alert}
      actions={
        <BusyButton type="submit" busy={create.isPending} className="btn-primary btn-sm self-start">
          Add link
        </BusyButton>
      }
    >
      <TextField label="Link title" error={errors.title?.message} {...register('title')} />
      <TextField label="Address" type="url" placeholder="https://" error={errors.url?.message} {...register('url')} />
    </EditorForm>
  );
}

type UploadFormInput = z.input<typeof MaterialFileFormBody> & { file: FileList | null };
type UploadFormValues = MaterialFileFormBody & { file: File };

const materialTitleResolver = zodResolver(MaterialFileFormBody);

/** The title through the shared schema, and a file chosen (the server reads its type from its bytes). */
const uploadResolver: Resolver<UploadFormInput, unknown, UploadFormValues> = async (values, context, options) => {
  const checked = await materialTitleResolver({ title: values.title }, context, {
    ...options,
    names: options.names?.filter((name) => name === 'title'),
  });
  const file = values.file?.[0];
  const errors: FieldErrors<UploadFormInput> = { ...checked.errors };
  if (!file) errors.file = { type: 'required', message: CONTENT_MESSAGES.fileRequired };
  if (!file || Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: { ...(checked.values as MaterialFileFormBody), file }, errors: {} };
};

/** A PDF or an image; the server reads the type from the bytes and refuses anything else. */
function UploadForm({ classId }: { classId: string }) {
  const upload = useUploadMaterial(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<UploadFormInput, unknown, UploadFormValues>({
    resolver: uploadResolver,
    defaultValues: { title: '', file: null },
  });
  useUnsavedEdits(isDirty);
  const submit = handleSubmit(({ title, file }) => {
    setFormError(null);
    upload.mutate(
      { title, file },
      {
        onSuccess: draftAdded('File uploaded as a draft', reset),
        onError: (error) => setFormError(errorMessage(error, 'The file could not be uploaded.')),
      },
    );
  });
  const alert = formError ?? errors.root?.message;
  return (
    <EditorForm
      label="Upload a material"
      onSubmit={submit}

      alert={alert}
      actions={
        <BusyButton type="submit" busy={upload.isPending} className="btn-primary btn-sm self-start">
          Upload
        </BusyButton>
      }
    >
      <TextField label="Material title" error={errors.title?.message} {...register('title')} />
      <TextField
        label="File (PDF or image)"
        type="file"
        accept={ACCEPTED_MATERIAL_TYPES.join(',')}
        className="file-input"
        error={errors.file?.message}
        {...register('file')}
      />
    </EditorForm>
  );
}

/** A session or material the server refused: said under its form, as an alert. */
/** One of the editor's forms: its fields, then a refusal, then its buttons. */
function EditorForm({
  label,
  onSubmit,
  alert,
  actions,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  alert: string | null | undefined;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={label}>
      {children}
      {alert ? (
        <p role="alert" className="text-sm font-medium text-error">
          {alert}
        </p>
      ) : null}
      {actions}
    </form>
  );
}

/** A new session or material is stored as a draft: say so, and empty the form for the next one. */
function draftAdded(message: string, reset: () => void) {
  return () => {
    notify.success(message);
    reset();
  };
}
