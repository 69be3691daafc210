import { ChevronDownIcon, PlusIcon, TrashIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import type { TDraftField, TOptionsDraft } from '@/lib/proxy-options-draft';
import { useOptionsTexts } from '@/lib/use-group-texts';
import { UpstreamTuningFields } from './upstream-tuning-fields';

type TProps = {
  /** Prefix of the controls' ids: two editors can share a page. */
  idPrefix: string;
  draft: TOptionsDraft;
  onChange: (draft: TOptionsDraft) => void;
  /** Messages by field, already in words. */
  errors: Partial<Record<TDraftField, string>>;
};

const mono = 'font-mono text-xs sm:text-xs';

/** A checkbox with its label on one line. */
function Toggle({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}

/**
 * A proxy's options (docs/PRODUCT.md#proxy-options), collapsed until opened: the edit dialog and
 * the wizard's destination step. Lists are typed one item a line; the shared schema judges them.
 */
export function ProxyOptionsEditor({ idPrefix, draft, onChange, errors }: TProps) {
  const { t } = useOptionsTexts();
  const [open, setOpen] = React.useState(Object.keys(errors).length > 0);
  React.useEffect(() => {
    if (Object.keys(errors).length > 0) setOpen(true);
  }, [errors]);
  const set = <K extends keyof TOptionsDraft>(key: K, value: TOptionsDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const id = (name: string) => `${idPrefix}-${name}`;
  const text = (name: keyof TOptionsDraft, hint?: string, rows = 3) => (
    <Field id={id(name)} label={t(`options.${name}`)} hint={hint} error={errors[name]}>
      {(aria) => (
        <Textarea
          {...aria}
          rows={rows}
          className={mono}
          spellCheck={false}
          value={draft[name] as string}
          onChange={(e) => set(name, e.target.value as never)}
          data-testid={id(name)}
        />
      )}
    </Field>
  );
  return (
    <div className="grid gap-3 rounded-md border p-3" data-testid={`${idPrefix}-options`}>
      <Button
        type="button"
        variant="ghost"
        className="justify-between px-1"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid={id('toggle')}
      >
        <span className="text-left">
          <span className="block font-medium">{t('options.title')}</span>
          <span className="block text-xs font-normal text-muted-foreground">
            {t('options.summary')}
          </span>
        </span>
        <ChevronDownIcon aria-hidden="true" className={open ? 'rotate-180' : ''} />
      </Button>
      {open ? (
        <div className="grid gap-4">
          {text('upstreams', t('options.upstreamsHint'))}
          <Field
            id={id('loadBalancing')}
            label={t('options.loadBalancing')}
            error={errors.loadBalancing}
          >
            {(aria) => (
              <NativeSelect
                {...aria}
                value={draft.loadBalancing}
                onChange={(e) =>
                  set('loadBalancing', e.target.value as TOptionsDraft['loadBalancing'])
                }
              >
                <option value="">{t('options.lb.default')}</option>
                <option value="least_conn">{t('options.lb.least_conn')}</option>
                <option value="ip_hash">{t('options.lb.ip_hash')}</option>
              </NativeSelect>
            )}
          </Field>
          <UpstreamTuningFields id={id} draft={draft} set={set} errors={errors} />
          {text('locations', t('options.locationsHint'))}
          <div className="grid gap-2">
            <Toggle
              id={id('hsts')}
              label={t('options.hsts')}
              checked={draft.hsts}
              onChange={(v) => set('hsts', v)}
            />
            {draft.hsts ? (
              <div className="grid gap-2 pl-6">
                <Field
                  id={id('hstsMaxAge')}
                  label={t('options.hstsMaxAge')}
                  error={errors.hstsMaxAge}
                >
                  {(aria) => (
                    <Input
                      {...aria}
                      inputMode="numeric"
                      value={draft.hstsMaxAge}
                      onChange={(e) => set('hstsMaxAge', e.target.value)}
                    />
                  )}
                </Field>
                <Toggle
                  id={id('hstsSub')}
                  label={t('options.hstsIncludeSubDomains')}
                  checked={draft.hstsIncludeSubDomains}
                  onChange={(v) => set('hstsIncludeSubDomains', v)}
                />
                <Toggle
                  id={id('hstsPreload')}
                  label={t('options.hstsPreload')}
                  checked={draft.hstsPreload}
                  onChange={(v) => set('hstsPreload', v)}
                />
                {draft.hstsPreload ? (
                  <p
                    className="text-xs text-amber-700 dark:text-amber-400"
                    role="note"
                    data-testid={id('preload-warning')}
                  >
                    {t('options.preloadWarning')}
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
          {text('headers', t('options.headersHint'))}
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field
              id={id('clientMaxBodyMb')}
              label={t('options.clientMaxBodyMb')}
              error={errors.clientMaxBodyMb}
            >
              {(aria) => (
                <Input
                  {...aria}
                  inputMode="numeric"
                  placeholder="64"
                  value={draft.clientMaxBodyMb}
                  onChange={(e) => set('clientMaxBodyMb', e.target.value)}
                />
              )}
            </Field>
            <Field id={id('compression')} label={t('options.compression')}>
              {(aria) => (
                <NativeSelect
                  {...aria}
                  value={draft.compression}
                  onChange={(e) =>
                    set('compression', e.target.value as TOptionsDraft['compression'])
                  }
                >
                  <option value="">{t('options.compressionValues.default')}</option>
                  <option value="on">{t('options.compressionValues.on')}</option>
                  <option value="off">{t('options.compressionValues.off')}</option>
                </NativeSelect>
              )}
            </Field>
          </div>
          <Toggle
            id={id('websocket')}
            label={t('options.websocket')}
            checked={draft.websocket}
            onChange={(v) => set('websocket', v)}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('options.basicAuth')}</legend>
            {draft.users.map((u, i) => {
              const rowError = errors[`users.${i}`];
              const update = (patch: Partial<typeof u>) =>
                set(
                  'users',
                  draft.users.map((x, j) => (j === i ? { ...x, ...patch } : x)),
                );
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
                <div key={i} className="grid items-start gap-2 sm:grid-cols-[1fr_1fr_auto]">
                  <Input
                    aria-label={t('options.username')}
                    placeholder={t('options.username')}
                    value={u.username}
                    onChange={(e) => update({ username: e.target.value })}
                    aria-invalid={Boolean(rowError)}
                    data-testid={id(`user-${i}`)}
                  />
                  <Input
                    type="password"
                    autoComplete="new-password"
                    aria-label={t('options.password')}
                    placeholder={u.hasPassword ? t('options.passwordKept') : t('options.password')}
                    value={u.password}
                    onChange={(e) => update({ password: e.target.value })}
                    data-testid={id(`password-${i}`)}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    size="icon"
                    aria-label={t('options.removeUser', { username: u.username })}
                    onClick={() =>
                      set(
                        'users',
                        draft.users.filter((_, j) => j !== i),
                      )
                    }
                  >
                    <TrashIcon aria-hidden="true" />
                  </Button>
                  {rowError ? (
                    <p role="alert" className="text-xs font-medium text-destructive sm:col-span-3">
                      {rowError}
                    </p>
                  ) : null}
                </div>
              );
            })}
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              onClick={() =>
                set('users', [...draft.users, { username: '', password: '', hasPassword: false }])
              }
              data-testid={id('add-user')}
            >
              <PlusIcon aria-hidden="true" />
              {t('options.addUser')}
            </Button>
          </fieldset>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            {text('allow', t('options.accessHint'), 2)}
            {text('deny', t('options.accessHint'), 2)}
          </div>
          <div className="grid items-start gap-4 sm:grid-cols-[1fr_8rem]">
            <Field id={id('redirectTo')} label={t('options.redirectTo')} error={errors.redirectTo}>
              {(aria) => (
                <Input
                  {...aria}
                  className={mono}
                  placeholder="https://new.example.com"
                  value={draft.redirectTo}
                  onChange={(e) => set('redirectTo', e.target.value)}
                  data-testid={id('redirectTo')}
                />
              )}
            </Field>
            <Field
              id={id('redirectCode')}
              label={t('options.redirectCode')}
              error={errors.redirectCode}
            >
              {(aria) => (
                <NativeSelect
                  {...aria}
                  value={draft.redirectCode}
                  onChange={(e) => set('redirectCode', e.target.value)}
                >
                  {['301', '302', '307', '308'].map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          </div>
          <Toggle
            id={id('keepPath')}
            label={t('options.redirectKeepPath')}
            checked={draft.redirectKeepPath}
            onChange={(v) => set('redirectKeepPath', v)}
          />
          {text('advanced', t('options.advancedHint'))}
        </div>
      ) : null}
    </div>
  );
}
