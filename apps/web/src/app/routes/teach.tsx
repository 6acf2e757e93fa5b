import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../lib/toast.ts';
import { dashboardHomePath, paths } from '../../config/paths.ts';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../features/auth/auth-context.ts';
import { teacherFlagQueryOptions } from '../../features/auth/api/get-roles.ts';
import { SESSION_QUERY_KEY } from '../../features/auth/api/get-session.ts';
import { EMAIL_NOT_VERIFIED, isEmailNotVerified, verifyEmailMessage } from '../../features/auth/verify-email.ts';
import { VerifyEmailNotice } from '../../features/auth/components/verify-email-notice.tsx';
import { REDIRECT_REASONS } from '../../features/auth/safe-return-path.ts';
import {
  myTeacherRequestQueryOptions,
  useCreateTeacherRequest,
} from '../../features/teacher-requests/api/teacher-requests.ts';
import { TeacherRequestStatus } from '../../features/teacher-requests/components/teacher-request-status.tsx';
import { ErrorState } from '../../components/ui/status-states.tsx';
import { CATEGORY_LABELS, EXPERIENCE_LABELS } from '@skillhive/shared/rules/constants';
import { SITE_PAGES } from '../routes.manifest.ts';

/**
 * The application form (and react-hook-form with it) is downloaded only by a signed-in person who
 * can apply: a visitor reads what it asks (WhatWeAsk) and signs in first.
 */
const TeacherRequestForm = lazy(() =>
  import('../../features/teacher-requests/components/teacher-request-form.tsx').then((module) => ({
    default: module.TeacherRequestForm,
  })),
);

/**
 * What the application asks, shown to visitors before they sign in, so nobody
 * creates an account to find out. The lists are the form's own options.
 */
function WhatWeAsk() {
  return (
    <section aria-labelledby="teach-what-we-ask" className="flex flex-col gap-3">
      <h2 id="teach-what-we-ask" className="text-xl font-bold">
        What the application asks
      </h2>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-semibold">Name, e-mail and photo</dt>
        <dd className="text-muted">Taken from your account; a verified e-mail address is needed to apply.</dd>
        <dt className="font-semibold">Your experience</dt>
        <dd className="text-muted">{Object.values(EXPERIENCE_LABELS).join(', ')}</dd>
        <dt className="font-semibold">A title</dt>
        <dd className="text-muted">What you would teach, in a few words (for example “Front-end mentor”).</dd>
        <dt className="font-semibold">A category</dt>
        <dd className="text-muted">{Object.values(CATEGORY_LABELS).join(', ')}</dd>
      </dl>
      <p className="text-muted">
        An admin reviews each application; you see its status here and can apply again if it is turned down.
      </p>
    </section>
  );
}

function SignInPrompt() {
  const location = useLocation();
  return (
    <div className="flex flex-col gap-6">
      <WhatWeAsk />
      <div className="flex flex-col items-start gap-4 rounded-box bg-base-200 p-6" data-testid="teach-sign-in-prompt">
        <h2 className="text-xl font-bold">Sign in to apply</h2>
        <p>
          You need a SkillHive account to apply as a teacher. Sign in (or create an account) and you will come right
          back here.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link
            to={paths.login}
            state={{
              from: { pathname: paths.teach, search: location.search, hash: '' },
              reason: REDIRECT_REASONS.signInToApply,
            }}
            className="btn btn-primary"
          >
            Sign in to apply
          </Link>
          <Link
            to={paths.signup}
            state={{ from: { pathname: paths.teach, search: '', hash: '' } }}
            className="btn btn-outline"
          >
            Create an account
          </Link>
        </div>
      </div>
    </div>
  );
}

function ApplicationPanel() {
  const { user, loading, isTeacher, role } = useAuth();
  const email = user?.email ?? '';
  const queryClient = useQueryClient();
  const request = useQuery({ ...myTeacherRequestQueryOptions(user), enabled: !!user && !loading });
  const createRequest = useCreateTeacherRequest();
  const [applyingAgain, setApplyingAgain] = useState(false);

  // An approval makes the user a teacher: refresh the role so "Dashboard" goes to the right home.
  const approved = request.data?.status === 'approved';
  useEffect(() => {
    if (approved && !isTeacher && email)
      void queryClient.invalidateQueries({ queryKey: teacherFlagQueryOptions(user).queryKey });
  }, [approved, isTeacher, email, user, queryClient]);

  if (!user) return null;
  if (loading || request.isPending) {
    return (
      <div className="flex flex-col gap-4" aria-hidden="true">
        <div className="skeleton h-8 w-1/2" />
        <div className="skeleton h-40 w-full" />
      </div>
    );
  }
  if (request.isError) {
    return (
      <ErrorState
        title="We could not load your application"
        message={errorMessage(request.error)}
        onRetry={() => void request.refetch()}
      />
    );
  }

  const current = request.data;
  if (current && !(current.status === 'rejected' && applyingAgain)) {
    return (
      <TeacherRequestStatus
        request={current}
        dashboardPath={dashboardHomePath(role === 'student' && current.status === 'approved' ? 'teacher' : role)}
        onApplyAgain={() => setApplyingAgain(true)}
      />
    );
  }
  if (!current && isTeacher) {
    return (
      <div className="flex flex-col items-start gap-4 rounded-box bg-base-200 p-6">
        <h2 className="text-xl font-bold">You already teach on SkillHive</h2>
        <p>Add and manage your classes from your dashboard.</p>
        <Link to={dashboardHomePath(role)} className="btn btn-primary">
          Go to your dashboard
        </Link>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-5">
      <VerifyEmailNotice />
      <Suspense
        fallback={
          <p role="status" className="text-muted">
            Loading the application form…
          </p>
        }
      >
        <TeacherRequestForm
          applicant={{ name: user.displayName, email: user.email, photoURL: user.photoURL }}
          onSubmit={async (values) => {
            try {
              await createRequest.mutateAsync(values);
            } catch (error) {
              if (!isEmailNotVerified(error)) throw error;
              // The session may predate a change of address: let the notice above catch up.
              void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
              throw new ApiError({ status: 403, code: EMAIL_NOT_VERIFIED, message: verifyEmailMessage(user.email) });
            }
            setApplyingAgain(false);
            notify.success('Your application has been submitted.');
          }}
        />
      </Suspense>
    </div>
  );
}

/** /teach: the teacher application (spec §2, not guarded). */
function TeachPage() {
  const { user, loading } = useAuth();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <title>{SITE_PAGES.teach.title}</title>
      <header className="flex flex-col gap-2">
        <p className="font-semibold uppercase tracking-wide text-primary">Teach On the platform</p>
        <h1 className="text-3xl font-bold">Share what you know with learners everywhere</h1>
        <p className="text-lg text-muted">
          Tell us what you would like to teach. Once an admin approves your application, you can add classes from your
          dashboard.
        </p>
      </header>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body p-6 sm:p-8">
          {loading && !user ? (
            <div className="flex flex-col gap-4" aria-hidden="true">
              <div className="skeleton h-8 w-1/2" />
              <div className="skeleton h-40 w-full" />
            </div>
          ) : user ? (
            <ApplicationPanel />
          ) : (
            <SignInPrompt />
          )}
        </div>
      </div>
    </div>
  );
}

export { TeachPage as Component };
