import type { FieldErrors, FieldValues, Resolver, ResolverResult } from 'react-hook-form';
import type { $ZodType, input, output } from 'zod/v4/core';

/** Shown for the whole form when its checks could not be downloaded (offline, or a new release). */
export const FORM_CHECKS_UNAVAILABLE =
  'This form could not be checked: the connection seems to be down. Check it and try again.';

/** A react-hook-form resolver whose code is downloaded on first use; `preload` starts that early. */
export type LazyResolver<TInput extends FieldValues, TOutput> = Resolver<TInput, unknown, TOutput> & {
  preload: () => void;
};

/**
 * The resolver of a shared form schema (packages/shared/src/rules), with the schema, Zod and the
 * resolver adapter left out of the page's first load (decision 016, "Forms check on first use").
 * A form calls `preload` when one of its fields is first focused, so the checks are there by the
 * time they run (on submit, then as fields change). If the download fails, the submission is
 * refused with a message for the whole form (`errors.root`), and the next attempt downloads again.
 */
export function lazyZodResolver<TSchema extends $ZodType<unknown, FieldValues>>(
  loadSchema: () => Promise<TSchema>,
): LazyResolver<input<TSchema>, output<TSchema>> {
  type Input = input<TSchema>;
  type Output = output<TSchema>;
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const load = () =>
    (loading ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as Resolver<Input, unknown, Output>,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    let resolve: Resolver<Input, unknown, Output>;
    try {
      resolve = await load();
    } catch {
      const refused: ResolverResult<Input, Output> = {
        values: {},
        // Not a field's error: the form shows it above its fields.
        errors: { root: { type: 'unavailable', message: FORM_CHECKS_UNAVAILABLE } } as FieldErrors<Input>,
      };
      return refused;
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, {
    preload: () => {
      load().catch(() => undefined);
    },
  });
}
