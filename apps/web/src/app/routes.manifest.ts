/**
 * Every page of the web app, declared once (decision 016). The router (router.tsx), the paths
 * (config/paths.ts), the first-render URLs (first-render-urls.ts), the build's first-load report and
 * route preloads (first-load-report.ts) and the end-to-end route lists (e2e/tests) are derived
 * from this list. It imports nothing at run time, so Node (the Vite config, Playwright) and the
 * browser read the same file.
 *
 * Adding a page: one entry here and its module in `routes/` (docs/ARCHITECTURE.md, "Adding a page").
 */

/** The API reads a first render can wait for (decision 008); first-render-urls.ts turns them into URLs. */
export type FirstRenderRead = 'session' | 'latestReviews' | 'catalogue' | 'publicClass';

/** Roles a guarded page may require beyond being signed in (spec §6; admin and teacher are flags). */
export type GuardRole = 'teacher' | 'admin';

interface PageBase {
  /** The URL pattern, absolute (`:id` for a parameter). The spec's route names are requirements. */
  path: string;
  /** The page's lazy route module, relative to `src/app/` (its own chunk). */
  module: `routes/${string}.tsx`;
}

export interface PublicPage extends PageBase {
  access: 'public';
  /** The document title (the page renders it; a server-rendered HTML could name it too). */
  title: string;
  /**
   * What the page's first render waits for, when visited without a query string: its loader
   * prefetches these, and the HTML the server answers the page with preloads them.
   */
  firstRender: readonly FirstRenderRead[];
}

export interface GuardedPage extends PageBase {
  /** `signed-in`: any signed-in user; otherwise the role the page needs (spec §2, §6). */
  access: 'signed-in' | GuardRole;
}

export type Page = PublicPage | GuardedPage;

/** Reads the root route waits for on every page: the navbar and every guard need the session. */
export const EVERY_PAGE_READS: readonly FirstRenderRead[] = ['session'];

/** Guarded pages live under the dashboard, whose layout requires login (spec §2). */
export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_LAYOUT_MODULE: `routes/${string}.tsx` = 'routes/dashboard/layout.tsx';
/** The layout route each role's pages sit under inside the dashboard (spec §6). */
export const GUARD_MODULES: Record<GuardRole, `routes/${string}.tsx`> = {
  teacher: 'routes/dashboard/teacher-only.tsx',
  admin: 'routes/dashboard/admin-only.tsx',
};

/**
 * The public pages, at the top level (spec §2). Their keys are their names in `paths`
 * (config/paths.ts builds it from these records, so a new page needs no other entry). Order is
 * the router's order.
 */
export const SITE_PAGES = {
  home: {
    path: '/',
    module: 'routes/home.tsx',
    access: 'public',
    title: 'SkillHive — learn and teach practical skills',
    firstRender: ['latestReviews'],
  },
  signup: {
    path: '/signup',
    module: 'routes/signup.tsx',
    access: 'public',
    title: 'Sign up — SkillHive',
    firstRender: [],
  },
  login: {
    path: '/login',
    module: 'routes/login.tsx',
    access: 'public',
    title: 'Sign in — SkillHive',
    firstRender: [],
  },
  teach: { path: '/teach', module: 'routes/teach.tsx', access: 'public', title: 'Teach on SkillHive', firstRender: [] },
  allClasses: {
    path: '/allClassAllowed',
    module: 'routes/all-classes.tsx',
    access: 'public',
    title: 'All classes — SkillHive',
    firstRender: ['catalogue'],
  },
  // Every review, where the home carousel shows the latest.
  reviews: {
    path: '/reviews',
    module: 'routes/reviews.tsx',
    access: 'public',
    title: 'Learner reviews — SkillHive',
    firstRender: [],
  },
  // Every class card links here; the server names the class in the HTML's meta tags.
  classPage: {
    path: '/classes/:id',
    module: 'routes/class-page.tsx',
    access: 'public',
    title: 'Class — SkillHive',
    firstRender: ['publicClass'],
  },
  // Where the links of account mails land (the server sends the same paths as callbacks).
  forgotPassword: {
    path: '/forgot-password',
    module: 'routes/forgot-password.tsx',
    access: 'public',
    title: 'Forgot your password? — SkillHive',
    firstRender: [],
  },
  resetPassword: {
    path: '/reset-password',
    module: 'routes/reset-password.tsx',
    access: 'public',
    title: 'Choose a new password — SkillHive',
    firstRender: [],
  },
  emailVerified: {
    path: '/email-verified',
    module: 'routes/email-verified.tsx',
    access: 'public',
    title: 'E-mail verified — SkillHive',
    firstRender: [],
  },
  // The "this was not me" link of the mails about a change of address (decision 028).
  notMe: {
    path: '/not-me',
    module: 'routes/not-me.tsx',
    access: 'public',
    title: 'This was not me — SkillHive',
    firstRender: [],
  },
} as const satisfies Record<string, PublicPage>;

/**
 * The dashboard's pages (spec §2, its child routes): guarded, under /dashboard, named in `paths`
 * as `paths.dashboard.<key>`. They title themselves (their titles name their data).
 */
export const DASHBOARD_PAGES = {
  root: { path: '/dashboard', module: 'routes/dashboard/index.tsx', access: 'signed-in' },
  studentHome: { path: '/dashboard/studentHome', module: 'routes/dashboard/student-home.tsx', access: 'signed-in' },
  classDetails: {
    path: '/dashboard/classDetails/:id',
    module: 'routes/dashboard/class-details.tsx',
    access: 'signed-in',
  },
  payment: { path: '/dashboard/payment', module: 'routes/dashboard/payment.tsx', access: 'signed-in' },
  myEnrollClass: {
    path: '/dashboard/myEnrollClass',
    module: 'routes/dashboard/my-enroll-class.tsx',
    access: 'signed-in',
  },
  // A paid class as its student opens it: sessions, materials, progress (decision 021).
  myEnrollClassDetails: {
    path: '/dashboard/myEnrollClass/:id',
    module: 'routes/dashboard/my-enroll-class-details.tsx',
    access: 'signed-in',
  },
  // A person's own payments and a printable receipt per payment.
  paymentHistory: {
    path: '/dashboard/paymentHistory',
    module: 'routes/dashboard/payment-history.tsx',
    access: 'signed-in',
  },
  paymentReceipt: {
    path: '/dashboard/paymentHistory/:id',
    module: 'routes/dashboard/payment-receipt.tsx',
    access: 'signed-in',
  },
  profile: { path: '/dashboard/profile', module: 'routes/dashboard/profile.tsx', access: 'signed-in' },
  // Conversations with teachers and, for a teacher, with the people asking (decision 045).
  messages: { path: '/dashboard/messages', module: 'routes/dashboard/messages.tsx', access: 'signed-in' },
  messageThread: {
    path: '/dashboard/messages/:id',
    module: 'routes/dashboard/message-thread.tsx',
    access: 'signed-in',
  },
  // What happened to a person: messages, decisions, refunds, reminders (decision 047).
  notifications: {
    path: '/dashboard/notifications',
    module: 'routes/dashboard/notifications.tsx',
    access: 'signed-in',
  },
  contact: { path: '/dashboard/contact', module: 'routes/dashboard/contact.tsx', access: 'signed-in' },
  teacherHome: { path: '/dashboard/teacherHome', module: 'routes/dashboard/teacher-home.tsx', access: 'teacher' },
  addClasses: { path: '/dashboard/addClasses', module: 'routes/dashboard/add-classes.tsx', access: 'teacher' },
  myClass: { path: '/dashboard/myClass', module: 'routes/dashboard/my-class.tsx', access: 'teacher' },
  updateItem: { path: '/dashboard/updateItem/:id', module: 'routes/dashboard/update-item.tsx', access: 'teacher' },
  // A teacher's discount codes for their own classes (decision 019).
  myCoupons: { path: '/dashboard/myCoupons', module: 'routes/dashboard/my-coupons.tsx', access: 'teacher' },
  // A teacher's balances, sales, payouts, statements and payout account (decisions 039, 040).
  earnings: { path: '/dashboard/earnings', module: 'routes/dashboard/earnings.tsx', access: 'teacher' },
  // DESIGN §1.10: the route the spec leaves dangling.
  myClassDetails: {
    path: '/dashboard/my-class/:id',
    module: 'routes/dashboard/my-class-details.tsx',
    access: 'teacher',
  },
  // The teacher's editor alone, open from the moment a class is created (pending review too), while
  // spec §2 keeps See Details (my-class/:id) for accepted classes.
  prepareClass: {
    path: '/dashboard/my-class/:id/prepare',
    module: 'routes/dashboard/prepare-class.tsx',
    access: 'teacher',
  },
  adminHome: { path: '/dashboard/adminHome', module: 'routes/dashboard/admin-home.tsx', access: 'admin' },
  users: { path: '/dashboard/users', module: 'routes/dashboard/users.tsx', access: 'admin' },
  teacherRequest: {
    path: '/dashboard/teacherRequest',
    module: 'routes/dashboard/teacher-request.tsx',
    access: 'admin',
  },
  allClasses: {
    path: '/dashboard/allClasses',
    module: 'routes/dashboard/all-classes.tsx',
    access: 'admin',
  },
  seeProgressDetails: {
    path: '/dashboard/seeProgressDetails/:id',
    module: 'routes/dashboard/see-progress-details.tsx',
    access: 'admin',
  },
  // Refund requests to decide, and refunds of a payment in full or one class of it.
  refunds: { path: '/dashboard/refunds', module: 'routes/dashboard/refunds.tsx', access: 'admin' },
  // Teachers' payouts, bank transfer batches, fee revenue, disputes and fee rates (decisions 039, 040).
  payouts: { path: '/dashboard/payouts', module: 'routes/dashboard/payouts.tsx', access: 'admin' },
  // Site-wide discount codes (decision 019).
  coupons: { path: '/dashboard/coupons', module: 'routes/dashboard/coupons.tsx', access: 'admin' },
  // Reports to decide: dismiss, hide, warn, suspend (decision 043).
  reports: { path: '/dashboard/reports', module: 'routes/dashboard/reports.tsx', access: 'admin' },
  audit: { path: '/dashboard/audit', module: 'routes/dashboard/audit.tsx', access: 'admin' },
  mailbox: { path: '/dashboard/mailbox', module: 'routes/dashboard/mailbox.tsx', access: 'admin' },
} as const satisfies Record<string, GuardedPage>;

/** Every page, in the router's order. */
export const PAGE_LIST: readonly Page[] = [...Object.values(SITE_PAGES), ...Object.values(DASHBOARD_PAGES)];

export function isPublicPage(page: Page): page is PublicPage {
  return page.access === 'public';
}

/** The public pages: first-load budget, route preloads, and the e2e lists. */
export const PUBLIC_PAGES: readonly PublicPage[] = PAGE_LIST.filter(isPublicPage);

/** `/dashboard/updateItem/:id` with `{ id }` → `/dashboard/updateItem/<encoded id>`. */
export function fillPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${pattern} needs :${name}`);
    return encodeURIComponent(value);
  });
}
