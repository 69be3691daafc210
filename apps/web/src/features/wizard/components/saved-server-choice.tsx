import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { ServerIcon } from 'lucide-react';
import { useServersTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';

/** The value of the "a new server" choice. */
export const NEW_SERVER = 'new';

/**
 * Step one's first question when the user has saved servers: one of them (its address, user and
 * secrets are used, nothing is typed), or a new server typed below.
 */
export function SavedServerChoice({
  servers,
  value,
  onChange,
}: {
  servers: TSshServer[];
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useServersTexts();
  const options = [
    ...servers.map((s) => ({
      value: s.id,
      title: s.name,
      detail: `${s.username}@${s.host}${s.port === 22 ? '' : `:${s.port}`} · ${t(
        s.authKind === 'key' ? 'servers.wizard.authKey' : 'servers.wizard.authPassword',
      )}`,
      address: true,
    })),
    {
      value: NEW_SERVER,
      title: t('servers.wizard.new'),
      detail: t('servers.wizard.newHint'),
      address: false,
    },
  ];
  return (
    <fieldset className="grid gap-2" data-testid="wizard-server-choice">
      <legend className="mb-2 text-sm font-medium">{t('servers.wizard.legend')}</legend>
      {options.map((o) => (
        <label
          key={o.value}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-md border border-border px-3 py-2 text-sm',
            value === o.value && 'border-primary bg-accent',
          )}
        >
          <input
            type="radio"
            name="wizard-server"
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            className="mt-1"
          />
          <ServerIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="grid min-w-0">
            <span className="font-medium break-words">{o.title}</span>
            <span
              className={cn(
                'text-xs text-muted-foreground',
                o.address ? 'font-mono break-all' : 'break-words',
              )}
            >
              {o.detail}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
