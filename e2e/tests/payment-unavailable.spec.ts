import { test, expect } from '../fixtures/arrange.ts';

/**
 * Money only for live classes (decision 010): a class deleted by its teacher or an admin while it
 * sits in a student's cart is marked "This class is no longer available", left out of the total,
 * and can be removed.
 */

const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

test('a class deleted while it is in the cart is marked unavailable, excluded from the total, and removable', async ({
  page,
  arrange,
}) => {
  const [teacher, student, buyer] = await Promise.all([
    arrange.teacher(),
    arrange.student('cart'),
    arrange.student('buyer'),
  ]);
  const gone = await arrange.acceptedClass(teacher, { price: 30 });
  const kept = await arrange.acceptedClass(teacher, { price: 24.5 });

  // The student puts both classes in the cart.
  await arrange.cartLine(student, gone.id);
  await arrange.cartLine(student, kept.id);

  // Someone else has paid for `gone`, so deleting it archives it (DESIGN §4); its teacher deletes it.
  await arrange.paidEnrollment(buyer, [gone.id]);
  const deleted = await teacher.api.delete(`/api/classes/${gone.id}`);
  expect(deleted.ok(), await deleted.text()).toBe(true);

  await arrange.signIn(page, student);
  await page.goto('/dashboard/payment');
  await expect(page.getByRole('heading', { name: 'Your cart (2)' })).toBeVisible();
  const goneLine = page.getByRole('listitem').filter({ hasText: gone.title });
  await expect(goneLine.getByText('This class is no longer available')).toBeVisible();
  const keptLine = page.getByRole('listitem').filter({ hasText: kept.title });
  await expect(keptLine.getByText('This class is no longer available')).toHaveCount(0);
  await expect(page.getByTestId('payment-total')).toHaveText(usd(kept.price));

  await goneLine.getByRole('button', { name: `Remove ${gone.title} from the cart` }).click();
  await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();
  await expect(page.getByTestId('payment-total')).toHaveText(usd(kept.price));
});
