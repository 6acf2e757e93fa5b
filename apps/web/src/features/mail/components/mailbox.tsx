import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { MAILBOX_PAGE_SIZE, mailboxQueryOptions } from '../api/mailbox.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { useAppConfig } from '../../auth/api/get-app-config.ts';
import { EmptyState } from '../../../components/ui/status-states.tsx';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** The plain-text body with its links made clickable, so every link in a mail can be followed. */
function MailText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <p className="text-sm break-words whitespace-pre-line">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="link link-primary">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </p>
  );
}

/**
 * The development mailbox: without an SMTP server every mail the app
 * writes waits in the outbox, and admins read it here.
 */
export function Mailbox() {
  const config = useAppConfig();
  // A production server, or one with a mail server, keeps no mailbox: its menu has no link here.
  const off = config.data?.mailbox === false;
  return (
    <div className="flex flex-col gap-5">
      <title>Mailbox — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Mailbox</h1>
        {off ? null : (
          <p className="text-muted">
            No mail server is configured, so the e-mails SkillHive writes wait here. Set SMTP_URL to send them.
          </p>
        )}
      </div>
      {off ? (
        <EmptyState title="This server sends its e-mail">
          <p className="text-muted">
            The mailbox exists only on a development server without a mail server (SMTP_URL); here every e-mail goes to
            its recipient.
          </p>
          <Link to={paths.dashboard.adminHome} className="btn btn-primary">
            Back to Admin Home
          </Link>
        </EmptyState>
      ) : config.isPending ? null : (
        <MailList />
      )}
    </div>
  );
}

function MailList() {
  const page = usePageParam();
  const user = useUserScope();
  const query = useQuery(mailboxQueryOptions(user, page));
  return (
    <>
      <PagedQueryState query={query} what="the mailbox" empty="No e-mail has been written yet.">
        {(data) => (
          <>
            <ul className="flex flex-col gap-3" aria-label="E-mails">
              {data.items.map((mail) => (
                <li key={mail._id} className="rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
                  <details>
                    <summary className="cursor-pointer">
                      <span className="font-semibold break-words">{mail.subject}</span>
                      <span className="block text-sm text-muted break-words">
                        To {mail.to} ·{' '}
                        <time dateTime={mail.createdAt}>{dateFormat.format(new Date(mail.createdAt))}</time> ·{' '}
                        {mail.status === 'sent' ? 'sent' : 'waiting'}
                      </span>
                    </summary>
                    <div className="mt-3 border-t border-base-300 pt-3">
                      <MailText text={mail.text} />
                    </div>
                  </details>
                </li>
              ))}
            </ul>
            <PageControls page={page} total={data.total} limit={MAILBOX_PAGE_SIZE} label="Mailbox pages" />
          </>
        )}
      </PagedQueryState>
    </>
  );
}
