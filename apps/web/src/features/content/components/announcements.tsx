import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Announcement } from '@skillhive/shared/contracts/content';
import { MESSAGE_BODY_MAX } from '@skillhive/shared/rules/constants';
import { AnnouncementFormBody } from '@skillhive/shared/rules/message-form';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { SelectField, TextareaField } from '../../../components/ui/form-field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useSubmitError } from '../../../lib/form-errors.ts';
import { notify } from '../../../lib/toast.ts';
import { countOf } from '../../../lib/plural.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classSectionsQueryOptions, sectionLabel } from '../../sections/api/sections.ts';
import { announcementsQueryOptions, usePostAnnouncement } from '../api/announcements.ts';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** The list both sides read, newest first; the text is shown as typed, never as markup. */
function AnnouncementList({
  items,
  showAudience,
}: {
  items: Announcement[];
  showAudience?: (a: Announcement) => string;
}) {
  return (
    <ul className="flex flex-col gap-3">
      {items.map((item) => (
        <li key={item._id} className="flex flex-col gap-1 rounded-box border border-base-300 p-4">
          <p className="text-sm text-muted">
            <time dateTime={item.createdAt}>{dateTime.format(new Date(item.createdAt))}</time>
            {showAudience ? ` · ${showAudience(item)}` : null}
          </p>
          <p className="whitespace-pre-line break-words">{item.body}</p>
        </li>
      ))}
    </ul>
  );
}

/** A student's class page (decision 050): what the teacher announced to the class or their section. */
export function ClassAnnouncements({ classId }: { classId: string }) {
  const headingId = useId();
  const query = useQuery(announcementsQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        Announcements
      </h2>
      <QueryState query={query} what="the announcements">
        {(items) =>
          items.length === 0 ? (
            <p className="text-muted">No announcements yet. Your teacher’s news about the class appears here.</p>
          ) : (
            <AnnouncementList items={items} />
          )
        }
      </QueryState>
    </section>
  );
}

type FormInput = z.input<typeof AnnouncementFormBody>;
const FIELDS = ['body', 'sectionId'] as const;

/**
 * The teacher's class page (decision 050): write to every student who paid for the class or for
 * one of its sections (each gets a mail), and what was sent so far.
 */
export function AnnouncementsPanel({ classId }: { classId: string }) {
  const headingId = useId();
  const user = useUserScope();
  const list = useQuery(announcementsQueryOptions(user, classId));
  const sections = useQuery(classSectionsQueryOptions(user, classId));
  const post = usePostAnnouncement(classId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<FormInput, unknown, AnnouncementFormBody>({
    resolver: zodResolver(AnnouncementFormBody),
    defaultValues: { body: '', sectionId: '' },
  });
  const { formError, attempt } = useSubmitError<FormInput>(setError, FIELDS, 'The announcement was not sent.');
  const sectionOptions = (sections.data ?? []).map((section, index) => ({
    value: section._id,
    label: `${sectionLabel(index)} (${section.timeZone})`,
  }));
  const audienceOf = (item: Announcement) => {
    if (!item.sectionId) return `the whole class, ${countOf(item.recipients, 'student', 'students')}`;
    const index = (sections.data ?? []).findIndex((section) => section._id === item.sectionId);
    return `${index >= 0 ? sectionLabel(index) : 'a section'}, ${countOf(item.recipients, 'student', 'students')}`;
  };
  const submit = handleSubmit((values) =>
    attempt(async () => {
      const sent = await post.mutateAsync({
        body: values.body,
        ...(values.sectionId ? { sectionId: values.sectionId } : {}),
      });
      reset();
      notify.success(`Announcement sent to ${countOf(sent.recipients, 'student', 'students')}.`);
    }),
  );
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        Announcements
      </h2>
      <form className="flex flex-col gap-2" noValidate onSubmit={(event) => void submit(event)}>
        <TextareaField
          label="Announcement to your students"
          rows={3}
          maxLength={MESSAGE_BODY_MAX}
          hint="Every student who paid gets it by e-mail and on the class page."
          error={errors.body?.message}
          {...register('body')}
        />
        {sectionOptions.length > 1 ? (
          <SelectField
            label="Send to"
            options={sectionOptions}
            placeholder="The whole class"
            error={errors.sectionId?.message}
            {...register('sectionId')}
          />
        ) : null}
        {formError ? (
          <p role="alert" className="text-error">
            {formError}
          </p>
        ) : null}
        <BusyButton type="submit" busy={post.isPending} className="btn-primary btn-sm self-start">
          Send announcement
        </BusyButton>
      </form>
      <QueryState query={list} what="the announcements">
        {(items) =>
          items.length === 0 ? (
            <p className="text-muted">You have not sent an announcement for this class yet.</p>
          ) : (
            <AnnouncementList items={items} showAudience={audienceOf} />
          )
        }
      </QueryState>
    </section>
  );
}
