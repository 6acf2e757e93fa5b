import { expect, newUser, test } from '../fixtures/arrange.ts';
import { accessToken, accountButton, fillLogin, logIn, logOut } from '../fixtures/app.ts';
import { expectReady } from '../fixtures/dashboard.ts';

/**
 * Sign-up, sign-in and the session token (spec §4, §5): the one spec, with account.spec.ts, that
 * signs in through the forms. Every account is arranged for the test, never a seeded one.
 */

test.describe('sign-up', () => {
  test('shows each field rule, then signs the new student in and goes home', async ({ page }) => {
    const user = newUser('signup');
    await page.goto('/signup');
    const submit = page.getByRole('button', { name: 'Sign Up' });

    await submit.click();
    for (const message of [
      'Name is required',
      'Photo URL is required',
      'Phone number is required',
      'Email is required',
      'Password is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    // Errors are tied to their fields.
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name is required');

    await page.getByLabel('Name').fill(user.name);
    await page.getByLabel('Photo URL').fill(user.image);
    await page.getByLabel('Email').fill(user.email);

    await page.getByLabel('Phone').fill('12345');
    await page.getByLabel('Password').fill('abc');
    await submit.click();
    await expect(page.getByText('Must be at least 11 digits')).toBeVisible();
    await expect(page.getByText('Password must be 6 characters')).toBeVisible();

    await page.getByLabel('Phone').fill('1'.repeat(21));
    await page.getByLabel('Password').fill('abcdefg');
    await submit.click();
    await expect(page.getByText('Must be at most 20 digits')).toBeVisible();
    await expect(
      page.getByText('Password must have one Upper case one lower case, one number and one special characters'),
    ).toBeVisible();

    await page.getByLabel('Phone').fill('555-12-abc');
    await submit.click();
    await expect(page.getByText('Must be between 11 and 20 digits')).toBeVisible();

    await page.getByLabel('Phone').fill(user.phone);
    await page.getByLabel('Password').fill(user.password);
    await submit.click();

    await expect(page).toHaveURL('/');
    await expect(accountButton(page)).toBeVisible();
    await expect(page.getByText('Welcome to SkillHive! Your account is ready.')).toBeVisible();
    await expect.poll(() => accessToken(page)).not.toBeNull();

    // The menu is opened once home has settled: focus moving to the new heading would close it.
    await expectReady(page);
    await accountButton(page).click();
    await expect(page.getByTestId('user-display-name')).toHaveText(user.name);
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/studentHome');
  });

  test('refuses a second account with the same e-mail', async ({ page, arrange }) => {
    const taken = await arrange.user('taken', { verified: false });
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Someone Else');
    await page.getByLabel('Photo URL').fill('/images/avatar-default.svg');
    await page.getByLabel('Phone').fill('+1 555 0100 999');
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Password').fill('Str0ng!Pass');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/signup');
  });
});

test.describe('login', () => {
  test('a wrong password says "Invalid email or password" and keeps the form filled', async ({ page, arrange }) => {
    const user = await arrange.user('wrong', { verified: false });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();

    await fillLogin(page, user.email, 'Wrong!Pass1');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
    await expect(page.getByLabel('Password')).toHaveValue('Wrong!Pass1');
    await expect(page).toHaveURL('/login');
  });

  test('checks the form with code downloaded on first use, and says so when it cannot be downloaded', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    // The connection drops after the page has loaded: the form's checks cannot be downloaded.
    await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This form could not be checked: the connection seems to be down. Check it and try again.',
    );
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();

    // Back online, the next attempt downloads them and checks the fields.
    await page.unroute('**/assets/*.js');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('returns the user to the guarded page they came from', async ({ page, arrange }) => {
    const user = await arrange.user('guarded', { verified: false });
    await page.goto('/dashboard/profile');
    await expect(page).toHaveURL('/login');
    await fillLogin(page, user.email, user.password);
    await expect(page).toHaveURL('/dashboard/profile');
    await expect(accountButton(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in to SkillHive' })).toHaveCount(0);
  });

  test('returns to the public page where Sign In was clicked, else home', async ({ page, arrange }) => {
    const user = await arrange.user('origin', { verified: false });
    await page.goto('/allClassAllowed?category=data-science');
    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/login');
    await fillLogin(page, user.email, user.password);
    await expect(page).toHaveURL('/allClassAllowed?category=data-science');

    await expectReady(page);
    await logOut(page);
    await page.goto('/login');
    await fillLogin(page, user.email, user.password);
    await expect(page).toHaveURL('/');
  });

  test('the dashboard button follows the role: admin > teacher > student', async ({ page, arrange }) => {
    const [admin, teacher] = await Promise.all([arrange.admin('menu-admin'), arrange.teacher('menu-teacher')]);

    await logIn(page, admin.email, admin.password);
    // Home has committed and settled before the menu opens: the focus moving to the new page's
    // heading closes an open menu.
    await expect(page).toHaveURL('/');
    await expectReady(page);
    await accountButton(page).click();
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/adminHome');
    await page.keyboard.press('Escape');
    await expect(accountButton(page)).toBeFocused();
    await logOut(page);

    await logIn(page, teacher.email, teacher.password);
    await expect(page).toHaveURL('/');
    await expectReady(page);
    await accountButton(page).click();
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/teacherHome');
  });
});

test.describe('session token', () => {
  test('access-token is stored after login and removed after log-out', async ({ page, arrange }) => {
    const user = await arrange.user('token', { verified: false });
    await page.goto('/');
    expect(await accessToken(page)).toBeNull();
    await logIn(page, user.email, user.password);
    expect(await accessToken(page)).toMatch(/\S{20,}/);

    await expectReady(page);
    await logOut(page);
    await expect.poll(() => accessToken(page)).toBeNull();
    // Still signed out after a reload.
    await page.reload();
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  test('a refused token signs the user out and sends them to /login, then back', async ({ page, context, arrange }) => {
    const user = await arrange.user('refused', { verified: false });
    await arrange.signIn(page, user);
    // The page's one token request (spec §4) has answered and its token is stored: nothing of the
    // app's start-up can write a valid token over the invalid one planted below.
    const issued = page.waitForResponse(
      (response) => response.url().endsWith('/api/jwt') && response.request().method() === 'POST',
    );
    await page.goto('/');
    const { token } = (await (await issued).json()) as { token: string };
    await expect.poll(() => accessToken(page)).toBe(token);
    await expect(accountButton(page)).toBeVisible();
    await expectReady(page);

    // The session ends server-side (cookie gone) and the stored token is not valid.
    await context.clearCookies();
    await page.evaluate(() => window.localStorage.setItem('access-token', 'not-a-valid-token'));

    // A secured call (GET my teacher request) now gets 401.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teach On the platform' }).click();
    await expect(page).toHaveURL('/login');
    // The URL changes first; /teach, signed out now, stays until the login page's code is in.
    await expect(page.getByRole('heading', { name: 'Sign in to SkillHive' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    expect(await accessToken(page)).toBeNull();

    await fillLogin(page, user.email, user.password);
    await expect(page).toHaveURL('/teach');
  });
});
