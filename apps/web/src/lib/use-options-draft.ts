import { type TProxyOptionsInput, ZProxyOptionsInput } from '@portico/shared/proxy/options';
import * as React from 'react';
import { ApiError } from './api-client';
import {
  draftFieldOf,
  optionsOf,
  type TDraftField,
  type TOptionsDraft,
} from './proxy-options-draft';
import { useOptionsTexts } from './use-group-texts';

type TErrors = Partial<Record<TDraftField, string>>;

/**
 * The options editor's draft and its errors for a form: `check` judges the draft with the shared
 * schema (errors in words on their fields, null when refused), `applyServerIssues` puts the
 * server's `options.*` issues (already in words) on them.
 */
export function useOptionsDraft(initial: TOptionsDraft) {
  const { t } = useOptionsTexts();
  const [draft, setDraft] = React.useState(initial);
  const [errors, setErrors] = React.useState<TErrors>({});

  const reset = React.useCallback((next: TOptionsDraft) => {
    setDraft(next);
    setErrors({});
  }, []);

  function check(): TProxyOptionsInput | null {
    const parsed = ZProxyOptionsInput.safeParse(optionsOf(draft));
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const found: TErrors = {};
    for (const issue of parsed.error.issues) {
      const field = draftFieldOf(issue.path);
      if (field && !found[field]) found[field] = t(issue.message);
    }
    setErrors(found);
    return null;
  }

  function applyServerIssues(error: unknown): void {
    if (!(error instanceof ApiError)) return;
    const found: TErrors = {};
    for (const issue of error.body?.issues ?? []) {
      const [head, ...rest] = issue.path.split('.');
      if (head !== 'options') continue;
      const field = draftFieldOf(rest);
      if (field && !found[field]) found[field] = issue.message;
    }
    setErrors(found);
  }

  return { draft, setDraft, errors, reset, check, applyServerIssues };
}
