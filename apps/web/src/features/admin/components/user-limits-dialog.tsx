import type { TAdminUser } from '@portico/shared/admin/api';
import {
  LIMIT_KINDS,
  LIMIT_MAX,
  type TLimitKind,
  type TUserLimits,
  type TUserLimitsChange,
} from '@portico/shared/admin/limits';
import * as React from 'react';
import { FormDialog, FormDialogFooter } from '@/components/form-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useChangeLimits } from '../api/mutations';
import { useUserLimits } from '../api/queries';

type TTyped = Record<TLimitKind, string>;

/** What the fields start with: the account's own limit, or empty for the default. */
function typedOf(limits: TUserLimits): TTyped {
  return Object.fromEntries(
    LIMIT_KINDS.map((kind) => [kind, limits[kind].custom ? String(limits[kind].limit) : '']),
  ) as TTyped;
}

/** The change to send, or the kinds whose value is not a whole number from 0 to LIMIT_MAX. */
function changeOf(typed: TTyped): { change: TUserLimitsChange } | { invalid: TLimitKind[] } {
  const change: TUserLimitsChange = {};
  const invalid: TLimitKind[] = [];
  for (const kind of LIMIT_KINDS) {
    const value = typed[kind].trim();
    if (value === '') change[kind] = null;
    else if (/^\d{1,7}$/.test(value) && Number(value) <= LIMIT_MAX) change[kind] = Number(value);
    else invalid.push(kind);
  }
  return invalid.length > 0 ? { invalid } : { change };
}

/**
 * One account's limits (docs/PRODUCT.md#limits): per kind, how many it holds, the limit in force,
 * and a field for the account's own limit (empty: the configured default).
 */
export function UserLimitsDialog({
  user,
  onClose,
}: {
  user: TAdminUser | null;
  onClose: () => void;
}) {
  const { t } = useAdminTexts();
  const limits = useUserLimits(user?.id ?? null);
  const save = useChangeLimits();
  const [typed, setTyped] = React.useState<TTyped | null>(null);
  const [invalid, setInvalid] = React.useState<TLimitKind[]>([]);
  const [error, setError] = React.useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: start over for each account
  React.useEffect(() => {
    setTyped(null);
    setInvalid([]);
    setError(null);
  }, [user?.id]);
  const shown = typed ?? (limits.data ? typedOf(limits.data) : null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!user || !shown) return;
    const result = changeOf(shown);
    if ('invalid' in result) {
      setInvalid(result.invalid);
      return;
    }
    setInvalid([]);
    setError(null);
    try {
      await save.mutateAsync({ id: user.id, change: result.change });
      toast({ title: t('admin.limits.saved', { username: user.username }) });
      onClose();
    } catch (err) {
      setError(errorDescription(err, t, t('admin.limits.saveFailed')));
    }
  };

  return (
    <FormDialog
      open={user !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      pending={save.isPending}
      title={t('admin.limits.title', { username: user?.username ?? '' })}
      description={t('admin.limits.description')}
      testId="admin-limits-dialog"
    >
      {limits.isError ? (
        <Alert variant="destructive">
          <AlertDescription>
            {errorDescription(limits.error, t, t('admin.limits.loadFailed'))}
          </AlertDescription>
        </Alert>
      ) : null}
      {limits.data && shown ? (
        <form id="admin-limits-form" onSubmit={submit} noValidate className="grid gap-4">
          {LIMIT_KINDS.map((kind) => {
            const current = limits.data[kind];
            return (
              <Field
                key={kind}
                id={`admin-limit-${kind}`}
                label={t(`admin.limits.kinds.${kind}`)}
                hint={t('admin.limits.used', { used: current.used, limit: current.limit })}
                error={invalid.includes(kind) ? t('validation.limit.number') : undefined}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    inputMode="numeric"
                    placeholder={t('admin.limits.defaultPlaceholder')}
                    value={shown[kind]}
                    onChange={(e) => {
                      setTyped({ ...shown, [kind]: e.target.value });
                      setInvalid(invalid.filter((k) => k !== kind));
                    }}
                    data-testid={`admin-limit-${kind}`}
                  />
                )}
              </Field>
            );
          })}
        </form>
      ) : !limits.isError ? (
        <Spinner />
      ) : null}
      {error ? (
        <Alert variant="destructive">
          <AlertDescription data-testid="admin-limits-error">{error}</AlertDescription>
        </Alert>
      ) : null}
      <FormDialogFooter
        formId="admin-limits-form"
        pending={save.isPending}
        saveDisabled={!limits.data}
        onCancel={onClose}
        cancelLabel={t('admin.common.cancel')}
        saveLabel={t('admin.common.save')}
        saveTestId="admin-limits-save"
      />
    </FormDialog>
  );
}
