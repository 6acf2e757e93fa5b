import { useId, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { Coupon } from '@skillhive/shared/contracts/coupons';
import { COUPON_KINDS, type CouponKind } from '@skillhive/shared/rules/coupons';
import { CreateCouponBody } from '@skillhive/shared/rules/coupon-form';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  COUPONS_PAGE_SIZE,
  couponsQueryOptions,
  useCreateCoupon,
  useDisableCoupon,
  type CouponOwner,
} from '../api/coupons.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "15% off" or "$5.00 off". */
export function couponValueLabel(coupon: Pick<Coupon, 'kind' | 'value'>): string {
  return coupon.kind === 'percent' ? `${coupon.value}% off` : `${formatPrice(centsToDecimal(coupon.value))} off`;
}

/** Active, disabled, expired or used up: what a student trying the code would meet. */
function couponState(coupon: Coupon, now: Date): { label: string; badge: string } {
  if (coupon.disabled) return { label: 'Disabled', badge: 'badge-ghost' };
  if (coupon.expiresAt && new Date(coupon.expiresAt) <= now) return { label: 'Expired', badge: 'badge-warning' };
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) return { label: 'Used up', badge: 'badge-info' };
  return { label: 'Active', badge: 'badge-success' };
}

const COPY: Record<CouponOwner, { title: string; intro: string }> = {
  site: {
    title: 'Coupons',
    intro: 'Site-wide discount codes: they apply to every class in a student’s cart.',
  },
  teacher: {
    title: 'My Coupons',
    intro: 'Discount codes for your own classes: in a cart, they take money off your classes only.',
  },
};

/**
 * The admin's site-wide coupons (/dashboard/coupons) and a teacher's own (/dashboard/myCoupons),
 * decision 019: the list with uses, expiry and state, a form to create one, and disabling with a
 * confirmation that names the code.
 */
export function CouponsPage({ owner }: { owner: CouponOwner }) {
  const { title, intro } = COPY[owner];
  return (
    <div className="flex flex-col gap-8">
      <title>{`${title} — SkillHive`}</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
        <p className="text-muted">{intro}</p>
      </div>
      <CreateCouponForm owner={owner} />
      <CouponList owner={owner} />
    </div>
  );
}

function CouponList({ owner }: { owner: CouponOwner }) {
  const headingId = useId();
  const user = useUserScope();
  const page = usePageParam('page');
  const query = useQuery(couponsQueryOptions(user, owner, page));
  const disable = useDisableCoupon();
  const [confirm, dialog] = useConfirm();
  const now = new Date();

  const askToDisable = async (coupon: Coupon) => {
    const answer = await confirm({
      title: `Disable the coupon ${coupon.code}?`,
      text: `Students can no longer use ${coupon.code}. Payments already made with it keep their discount.`,
      confirmButtonText: `Disable ${coupon.code}`,
      danger: true,
    });
    if (answer !== 'confirmed') return;
    disable.mutate(coupon._id, {
      onSuccess: () => notify.success(`The coupon ${coupon.code} was disabled.`),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Your codes
      </h2>
      <PagedQueryState query={query} what="coupons" empty="No coupons yet.">
        {(data) => (
          <>
            <DataTable
              label="Coupons, newest first"
              columns={['Code', 'Discount', 'Uses', 'Expires', 'State', 'Actions']}
            >
              {data.items.map((coupon) => {
                const state = couponState(coupon, now);
                return (
                  <tr key={coupon._id} data-testid="coupon-row">
                    <th scope="row" className="font-mono font-medium">
                      {coupon.code}
                    </th>
                    <td className="whitespace-nowrap">{couponValueLabel(coupon)}</td>
                    <td className="whitespace-nowrap">
                      {coupon.uses}
                      {coupon.maxUses !== null ? ` of ${coupon.maxUses}` : ''}
                    </td>
                    <td className="whitespace-nowrap">
                      {coupon.expiresAt ? (
                        <time dateTime={coupon.expiresAt}>{dateFormat.format(new Date(coupon.expiresAt))}</time>
                      ) : (
                        'Never'
                      )}
                    </td>
                    <td>
                      <span className={`badge ${state.badge}`}>{state.label}</span>
                    </td>
                    <td>
                      {coupon.disabled ? null : (
                        <BusyButton
                          className="btn-sm btn-outline btn-error"
                          busy={disable.isPending && disable.variables === coupon._id}
                          aria-label={`Disable the coupon ${coupon.code}`}
                          onClick={() => void askToDisable(coupon)}
                        >
                          Disable
                        </BusyButton>
                      )}
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <PageControls page={page} total={data.total} limit={COUPONS_PAGE_SIZE} label="Coupon pages" name="page" />
          </>
        )}
      </PagedQueryState>
      {dialog}
    </section>
  );
}

/** The form's fields as the inputs hold them; turned into CreateCouponBody before the shared schema checks them. */
interface CouponFormValues {
  code: string;
  kind: CouponKind;
  value: number;
  /** A datetime-local value in the browser's time zone, or ''. */
  expiresAt: string;
  /** NaN when left empty (valueAsNumber). */
  maxUses: number;
}

function toBody(values: CouponFormValues): Record<string, unknown> {
  return {
    code: values.code,
    kind: values.kind,
    value: values.value,
    expiresAt: values.expiresAt ? new Date(values.expiresAt).toISOString() : null,
    maxUses: Number.isNaN(values.maxUses) ? null : values.maxUses,
  };
}

/** The shared CreateCouponBody (its messages) checks the form, after the inputs' values are shaped like the body. */
const sharedResolver = zodResolver(CreateCouponBody);
const couponResolver: Resolver<CouponFormValues, unknown, CreateCouponBody> = (values, context, options) =>
  sharedResolver(toBody(values) as never, context, options as never) as never;

function CreateCouponForm({ owner }: { owner: CouponOwner }) {
  const headingId = useId();
  const create = useCreateCoupon(owner);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    control,
    setError,
    formState: { errors },
  } = useForm<CouponFormValues, unknown, CreateCouponBody>({
    resolver: couponResolver,
    defaultValues: { code: '', kind: 'percent', expiresAt: '' },
  });
  const kind = useWatch({ control, name: 'kind' });

  const submit = handleSubmit((body) => {
    setFormError(null);
    create.mutate(body, {
      onSuccess: (coupon) => {
        notify.success(`The coupon ${coupon.code} was created.`);
        reset();
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.fields : undefined;
        if (fields?.code) setError('code', { message: fields.code });
        else if (error instanceof ApiError && error.status === 409) setError('code', { message: error.message });
        else setFormError(errorMessage(error, 'The coupon could not be created.'));
      },
    });
  });

  const alert = formError ?? errors.root?.message;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <h2 id={headingId} className="text-xl font-bold">
        Create a coupon
      </h2>
      <form
        onSubmit={(event) => void submit(event)}

        noValidate
        className="grid gap-3 sm:grid-cols-2"
      >
        <TextField
          label="Code"
          autoComplete="off"
          spellCheck={false}
          hint="3 to 40 letters, digits, - or _; students type it in any case."
          error={errors.code?.message}
          {...register('code')}
        />
        <SelectField
          label="Kind"
          options={COUPON_KINDS.map((k) => ({
            value: k,
            label: k === 'percent' ? 'Percentage off' : 'Fixed amount off',
          }))}
          error={errors.kind?.message}
          {...register('kind')}
        />
        <TextField
          label={kind === 'fixed' ? 'Amount off, in cents' : 'Percentage off'}
          type="number"
          inputMode="numeric"
          min={1}
          max={kind === 'percent' ? 100 : undefined}
          hint={kind === 'fixed' ? 'For example 500 for $5.00, taken once per cart.' : 'From 1 to 100.'}
          error={errors.value?.message}
          {...register('value', { valueAsNumber: true })}
        />
        <TextField
          label="Maximum uses (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          hint="Leave empty for no limit. Each student can use a code once."
          error={errors.maxUses?.message}
          {...register('maxUses', { valueAsNumber: true })}
        />
        <TextField
          label="Expires (optional)"
          type="datetime-local"
          hint="Leave empty for a code that does not expire."
          error={errors.expiresAt?.message}
          {...register('expiresAt')}
        />
        <div className="flex items-end">
          <BusyButton type="submit" className="btn-primary" busy={create.isPending}>
            Create coupon
          </BusyButton>
        </div>
        {alert ? (
          <p role="alert" className="font-medium text-error sm:col-span-2">
            {alert}
          </p>
        ) : null}
      </form>
    </section>
  );
}
