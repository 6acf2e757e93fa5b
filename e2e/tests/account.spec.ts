import { expect, PASSWORD, test, uniqueStamp } from '../fixtures/arrange.ts';
import type { Page } from '@playwright/test';
import { accessToken, accountButton, fillLogin } from '../fixtures/app.ts';
import { expectNoAxeViolations, expectNoHorizontalOverflow, makePng } from '../fixtures/dashboard.ts';
import { mailLink } from '../fixtures/mailbox.ts';

/**
 * Accounts and e-mail: verification, password reset, profile editing, devices. Each test arranges
 * its own account through the API and signs it in with its cookie; the forms under test are the
 * profile's, the reset's and the sign-in's.
 */

const verifyMessage = (email: string) =>
  `Verify your e-mail address to apply to teach and to pay. We sent a link to ${email}.`;

function section(page: Page, name: string) {
  return page.getByRole('region', { name, exact: true });
}

async function openProfile(page: Page) {
  await page.goto('/dashboard/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(section(page, 'Edit profile')).toBeVisible();
}

test.describe('accounts and e-mail', () => {
  test('the profile says the address is not verified, sends the link again, and the link verifies it', async ({
    page,
    baseURL,
    arrange,
  }) => {
    const user = await arrange.user('verify', { verified: false });
    await arrange.signIn(page, user);

    // The profile says the address is not verified, and can send the link again.
    await openProfile(page);
    const email = section(page, 'E-mail address');
    await expect(email.getByTestId('email-status')).toHaveText('Not verified');
    const notice = email.getByTestId('verify-email-notice');
    await expect(notice).toContainText(verifyMessage(user.email));
    const resentAfter = new Date(Date.now() - 1000);
    await notice.getByRole('button', { name: 'Send the link again' }).click();
    await expect(notice.getByRole('status')).toHaveText('Sent. Check your inbox.');

    // The link from the (resent) mail, opened in the browser, verifies the address.
    const verifyLink = await mailLink(baseURL!, user.email, 'verify-email', resentAfter);
    await page.goto(verifyLink);
    await expect(page).toHaveURL('/email-verified');
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail verified' })).toBeVisible();
    await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expect(page).toHaveURL('/dashboard/studentHome');
    await openProfile(page);
    await expect(email.getByTestId('email-status')).toHaveText('Verified');
    await expect(page.getByTestId('verify-email-notice')).toHaveCount(0);

    // A broken verification link says so.
    await page.goto('/email-verified?error=INVALID_TOKEN');
    await expect(page.getByRole('alert')).toContainText('This verification link is not valid');
    await expect(page.getByText('Your e-mail address is verified already')).toBeVisible();
  });

  test('forgot password → reset from the mail → the link works once, and only the new password signs in', async ({
    page,
    baseURL,
    arrange,
  }) => {
    // Signed out, the user has forgotten the password.
    const user = await arrange.user('reset');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `If an account exists for ${user.email}, we have sent a link to reset its password. The link works once, for one hour.`,
    );
    // The same answer for an address nobody has.
    const nobody = `nobody-${uniqueStamp()}@skillhive.test`;
    await page.getByLabel('Email').fill(nobody);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `If an account exists for ${nobody}, we have sent a link to reset its password. The link works once, for one hour.`,
    );

    // The reset link from the mail opens /reset-password with its token.
    const resetLink = await mailLink(baseURL!, user.email, 'reset-password');
    await page.goto(resetLink);
    await expect(page).toHaveURL(/\/reset-password\?token=/);
    const newPassword = 'Fresh!Pass7';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm password', { exact: true }).fill('Fresh!Pass8');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Your password has been changed.' });
    await expect(done).toContainText(
      'Your password has been changed. Every device signed in to your account has been signed out.',
    );
    await expect(done.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');

    // The link works once.
    await page.goto(resetLink);
    await expect(page.getByRole('alert')).toContainText('This link is invalid or has expired.');
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');

    // The old password no longer signs in; the new one does.
    await page.goto('/login');
    await fillLogin(page, user.email, user.password);
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await fillLogin(page, user.email, newPassword);
    await expect(accountButton(page)).toBeVisible();
    await expect.poll(() => accessToken(page)).not.toBeNull();
  });

  test('edit the profile: upload a photo and change the name', async ({ page, arrange }) => {
    const user = await arrange.user('photo', { verified: false });
    await arrange.signIn(page, user);
    await openProfile(page);
    const edit = section(page, 'Edit profile');

    await edit.getByLabel('Upload a photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: makePng(240, 240),
    });
    const photoUrl = edit.getByLabel('Photo URL', { exact: true });
    await expect(photoUrl).not.toHaveValue(user.image);
    await expect(photoUrl).not.toHaveValue('');
    const uploaded = await photoUrl.inputValue();

    const renamed = `${user.name} Renamed`;
    await edit.getByLabel('Name', { exact: true }).fill(renamed);
    await edit.getByLabel('Phone', { exact: true }).fill('12');
    await edit.getByRole('button', { name: 'Save profile' }).click();
    await expect(edit.getByText('Must be at least 11 digits')).toBeVisible();
    await edit.getByLabel('Phone', { exact: true }).fill('+1 555-0100-456');
    await edit.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved')).toBeVisible();

    const photo = page.getByRole('img', { name: `Photo of ${renamed}` });
    await expect(photo).toHaveAttribute('src', uploaded);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    await expect(page.locator('dl')).toContainText(renamed);
    await expect(page.locator('dl')).toContainText('+1 555-0100-456');
    // The navbar's account button follows the session.
    await expect(page.getByRole('button', { name: `Account menu for ${renamed}` })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('img', { name: `Photo of ${renamed}` })).toHaveAttribute('src', uploaded);
  });

  test('"Sign out everywhere" signs out the other browsers on their next page load', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const user = await arrange.user('devices', { verified: false });
    await arrange.signIn(page, user);
    // Two more browsers, each signed in with a session of its own (the API's sign-in, as the form
    // posts it: the sign-in form itself is auth.spec.ts's); their pages load at the end.
    const contexts = await Promise.all([browser.newContext({ baseURL }), browser.newContext({ baseURL })]);
    await Promise.all(
      contexts.map(async (context) => {
        const signedIn = await context.request.post('/api/auth/sign-in/email', {
          data: { email: user.email, password: user.password },
          headers: { origin: baseURL! },
        });
        expect(signedIn.ok(), await signedIn.text()).toBe(true);
        const session = await context.request.get('/api/auth/get-session');
        expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe(user.email);
      }),
    );

    await openProfile(page);
    const devices = section(page, 'Signed-in devices');
    const items = devices.getByTestId('session-item');
    await expect(items).toHaveCount(3);
    await expect(items.filter({ hasText: 'This device' })).toHaveCount(1);
    await expect(items.first()).toContainText('127.0.0.1');

    // One device signed out from here.
    await items
      .filter({ hasNotText: 'This device' })
      .first()
      .getByRole('button', { name: /^Sign out / })
      .click();
    await expect(devices.getByRole('status')).toHaveText('That device has been signed out.');
    await expect(items).toHaveCount(2);

    await devices.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to SkillHive' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await expect.poll(() => accessToken(page)).toBeNull();

    for (const context of contexts) {
      const other = await context.newPage();
      await other.goto('/dashboard/profile');
      await expect(other).toHaveURL('/login');
      await expect(accountButton(other)).toHaveCount(0);
    }
    await Promise.all(contexts.map((context) => context.close()));
  });

  test('an unverified user is told to verify before applying to teach or paying', async ({ page, arrange }) => {
    const [user, teacher] = await Promise.all([
      arrange.user('unverified', { verified: false }),
      arrange.teacher('unverified-shop'),
    ]);
    const item = await arrange.acceptedClass(teacher);
    await arrange.signIn(page, user);

    await page.goto('/teach');
    const notice = page.getByTestId('verify-email-notice');
    await expect(notice).toContainText(verifyMessage(user.email));
    await page.getByLabel('Title').fill('Watercolour basics');
    await page.getByLabel('Experience').selectOption('beginner');
    await page.getByLabel('Category').selectOption('graphic-design');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    const form = page.getByRole('form', { name: 'Teacher application' });
    await expect(form.getByRole('alert')).toHaveText(verifyMessage(user.email));
    await expect(page.getByTestId('teacher-request-status')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // The link can be sent again, a few times; then the server asks to wait (429). Sign-up's own
    // mail counted as the address's first of three (decision 028).
    const resend = notice.getByRole('button', { name: 'Send the link again' });
    for (let sent = 0; sent < 2; sent++) {
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/auth/send-verification-email') && r.status() === 200),
        resend.click(),
      ]);
      await expect(notice.getByRole('status')).toHaveText('Sent. Check your inbox.');
    }
    await resend.click();
    await expect(notice.getByRole('alert')).toHaveText(
      'You asked for several links just now. Please wait a few minutes.',
    );

    // Paying: the class page warns, and the payment page says why it cannot take a card.
    await page.goto(`/classes/${item.id}`);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await expect(page.getByTestId('verify-email-notice')).toContainText(verifyMessage(user.email));
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByRole('region', { name: 'Pay by card' }).getByRole('alert')).toHaveText(
      verifyMessage(user.email),
    );
    await expect(page.getByLabel('Card number')).toHaveCount(0);
  });

  test('change the password: a wrong current password is named, success keeps this device signed in', async ({
    page,
    arrange,
  }) => {
    const user = await arrange.user('password', { verified: false });
    await arrange.signIn(page, user);
    await openProfile(page);

    const password = section(page, 'Change password');
    await password.getByLabel('Current password', { exact: true }).fill('Wrong!Pass1');
    await password.getByLabel('New password', { exact: true }).fill('Next!Pass3');
    await password.getByLabel('Confirm new password').fill('Next!Pass3');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByText('The current password is not right')).toBeVisible();
    await expect(password.getByLabel('Current password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await password.getByLabel('Current password', { exact: true }).fill(user.password);
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByRole('status')).toHaveText(
      'Your password has been changed. Every other device signed in to your account has been signed out.',
    );
    // Still signed in here, on the new session and its new token: the device list is read again.
    const devices = section(page, 'Signed-in devices').getByTestId('session-item');
    await expect(devices).toHaveCount(1);
    await expect(devices).toContainText('This device');
    await expect(page).toHaveURL('/dashboard/profile');
  });

  test('e-mail settings: a change of address is mailed, notifications are kept; usable and axe-clean at 360 px', async ({
    page,
    baseURL,
    arrange,
  }) => {
    const user = await arrange.user('settings', { verified: false });
    await arrange.signIn(page, user);
    await openProfile(page);

    // E-mail change: confirmed by the current password; a link goes to the new address.
    const newAddress = `moved-${user.email}`;
    const email = section(page, 'E-mail address');
    await email.getByLabel('New e-mail address').fill(newAddress);
    await email.getByLabel('Current password').fill(PASSWORD);
    await email.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(email.getByRole('status')).toHaveText(
      `We sent a link to ${newAddress}. Your address changes when you follow it.`,
    );
    expect(await mailLink(baseURL!, newAddress, 'change-email')).toContain('/api/auth/verify-email?token=');

    // Notifications: saved as ticked, kept after a reload.
    const notifications = section(page, 'E-mail notifications');
    const decided = notifications.getByLabel('When my application to teach is decided');
    await expect(decided).toBeChecked();
    await decided.uncheck();
    await expect(page.getByText('E-mail settings saved')).toBeVisible();
    await page.reload();
    await expect(
      section(page, 'E-mail notifications').getByLabel('When my application to teach is decided'),
    ).not.toBeChecked();
    await expect(
      section(page, 'E-mail notifications').getByLabel('When my class or my changes to it are reviewed'),
    ).toBeChecked();

    // 360 px: usable, nothing scrolls sideways, no axe violations.
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  test('delete the account: a modal dialog asks for the password, then the account is gone', async ({
    page,
    arrange,
  }) => {
    const user = await arrange.user('delete', { verified: false });
    await arrange.signIn(page, user);
    await openProfile(page);

    const danger = section(page, 'Delete account');
    await expect(danger).toContainText('Payment records are kept for accounting.');
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Password')).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(danger.getByRole('button', { name: 'Delete my account' })).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Password').fill('Wrong!Pass1');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByText('The password is not right')).toBeVisible();
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByText('Your account was deleted')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect.poll(() => accessToken(page)).toBeNull();

    await page.goto('/login');
    await fillLogin(page, user.email, user.password);
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  });
});
