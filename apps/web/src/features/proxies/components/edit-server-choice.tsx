import { maskHost } from '@portico/shared/masking';
import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import type { FieldValues, Resolver } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { useServersTexts } from '@/lib/use-group-texts';
import { useAccountSshServers, useSshServers } from '@/lib/use-ssh-servers';

/** A saved server a proxy can be on: where it points the proxy (docs/PRODUCT.md#edit-dialog). */
export type TServerPlace = { id: string; host: string; port: number; username: string };

type TPlaceOption = { place: TServerPlace; label: string };

type TProxyOnServer = {
  sshServerId?: string | null;
  serverIp?: string | null;
  sshUser?: string | null;
  sshPort?: number | null;
};

const labelOf = (name: string | null, place: TServerPlace) =>
  `${name ? `${name} · ` : ''}${place.username}@${maskHost(place.host)}`;

/**
 * The owner's saved servers read so far, and the proxy's own server first when it is on a page
 * not read yet (a proxy on a server holds that server's address, port and user).
 */
export function placeOptions(
  servers: readonly TSshServer[],
  proxy: TProxyOnServer,
): TPlaceOption[] {
  const listed = servers.map((s) => ({
    place: { id: s.id, host: s.host, port: s.port, username: s.username },
    label: labelOf(s.name, { id: s.id, host: s.host, port: s.port, username: s.username }),
  }));
  const id = proxy.sshServerId;
  if (!id || listed.some((o) => o.place.id === id)) return listed;
  const own = {
    id,
    host: proxy.serverIp ?? '',
    port: proxy.sshPort ?? 22,
    username: proxy.sshUser || 'root',
  };
  return [{ place: own, label: labelOf(null, own) }, ...listed];
}

/**
 * The saved servers the edit dialog offers: the user's own; in admin mode the proxy owner's (an
 * admin's own list is everyone's, and a proxy may only move onto its owner's servers).
 */
export function useServerPlaces(
  proxy: TProxyOnServer & { userId?: string },
  mode: 'user' | 'admin',
): TPlaceOption[] {
  const own = useSshServers({ enabled: mode === 'user' });
  const owners = useAccountSshServers(mode === 'admin' ? proxy.userId : undefined);
  const servers =
    mode === 'user'
      ? (own.data?.pages.flatMap((p) => p.servers) ?? [])
      : (owners.data?.items ?? []);
  return placeOptions(servers, proxy);
}

/**
 * The form's resolver with the chosen server's address, user and port in place of the typed
 * ones (hidden then, so never what is validated or sent) and its id as `sshServerId`.
 */
export function onChosenServer<TValues extends FieldValues, TContext, TOutput>(
  resolver: Resolver<TValues, TContext, TOutput>,
  chosen: () => TServerPlace | null,
): Resolver<TValues, TContext, TOutput> {
  return (values, context, options) => {
    const place = chosen();
    if (!place) return resolver(values, context, options);
    const placed = {
      ...values,
      serverIp: place.host,
      sshUser: place.username,
      sshPort: place.port,
      sshServerId: place.id,
    };
    return resolver(placed, context, options);
  };
}

type TServerChoiceProps = {
  options: TPlaceOption[];
  /** The chosen server's id; '' for the typed address. */
  value: string;
  onChange: (id: string) => void;
  /** Whether the choice moves the proxy off its current server or typed address. */
  moving: boolean;
};

/** The "Server" select: a saved server, or the address typed in the fields below it. */
export function ServerChoice({ options, value, onChange, moving }: TServerChoiceProps) {
  const { t } = useServersTexts();
  return (
    <>
      <Field
        id="edit-server"
        label={t('servers.editChoice.label')}
        hint={t('servers.editChoice.hint')}
      >
        {(aria) => (
          <NativeSelect
            {...aria}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            data-testid="edit-server-choice"
          >
            <option value="">{t('servers.editChoice.typed')}</option>
            {options.map((o) => (
              <option key={o.place.id} value={o.place.id}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {value && moving ? (
        <p className="text-sm text-muted-foreground" data-testid="edit-server-moving-note">
          {t('servers.editChoice.movingNote')}
        </p>
      ) : null}
    </>
  );
}
