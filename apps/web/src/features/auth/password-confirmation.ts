import type { FieldErrors, FieldValues, Resolver, ResolverOptions, ResolverResult } from 'react-hook-form';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** The spec §5 password rule in words, under every new-password field. */
export const PASSWORD_RULE_HINT =
  '6–20 characters with an upper-case and a lower-case letter, a number and one of ! @ # $ & *.';

/** A form with a new password typed twice. */
export interface ConfirmedPassword {
  newPassword: string;
  confirmPassword: string;
}

/**
 * Adds "confirm must match" to a resolver built from a shared schema (which knows nothing of the
 * confirmation: the server never sees it). The schema's own errors are kept.
 */
export function withPasswordConfirmation<TSchemaInput extends FieldValues, TContext, TOutput>(
  resolver: Resolver<TSchemaInput, TContext, TOutput>,
): Resolver<TSchemaInput & ConfirmedPassword, TContext, TOutput> {
  type Values = TSchemaInput & ConfirmedPassword;
  return async (values, context, options) => {
    const result = await resolver(values, context, options as unknown as ResolverOptions<TSchemaInput>);
    if (values.confirmPassword === values.newPassword) return result as ResolverResult<Values, TOutput>;
    const errors = {
      ...result.errors,
      confirmPassword: { type: 'validate', message: PASSWORDS_DO_NOT_MATCH },
    } as FieldErrors<Values>;
    return { values: {}, errors };
  };
}
