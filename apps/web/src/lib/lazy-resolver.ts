import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver fetched with the form's first check, for forms on the first page: the landing
 * page shows and takes input before its validation code (zod and the schemas) has arrived.
 */
export function lazyResolver<TValues extends FieldValues, TContext, TOutput>(
  load: () => Promise<Resolver<TValues, TContext, TOutput>>,
): Resolver<TValues, TContext, TOutput> {
  let loading: Promise<Resolver<TValues, TContext, TOutput>> | undefined;
  return async (values, context, options) => {
    // A failed fetch is not kept: the next check (e.g. the next submit) tries again.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
