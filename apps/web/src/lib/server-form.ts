import type {
  TSshServer,
  TSshServerInput,
  TSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import { ZSshServerInput, ZSshServerUpdate } from '@portico/shared/ssh-servers/schemas';

/** How the dialog's user wants Portico to log in; `keep` (edit only) sends no credential. */
export const LOGIN_CHOICES = ['password', 'paste', 'generate', 'keep'] as const;
export type TLoginChoice = (typeof LOGIN_CHOICES)[number];

export type TServerForm = {
  name: string;
  host: string;
  port: string;
  username: string;
  description: string;
  login: TLoginChoice;
  password: string;
  privateKey: string;
  passphrase: string;
  sudoPassword: string;
};

export const FORM_FIELDS = [
  'name',
  'host',
  'port',
  'username',
  'description',
  'login',
  'password',
  'privateKey',
  'passphrase',
  'sudoPassword',
] as const satisfies readonly (keyof TServerForm)[];

export function formDefaults(server: TSshServer | null): TServerForm {
  return {
    name: server?.name ?? '',
    host: server?.host ?? '',
    port: String(server?.port ?? 22),
    username: server?.username ?? 'root',
    description: server?.description ?? '',
    login: server ? 'keep' : 'password',
    password: '',
    privateKey: '',
    passphrase: '',
    sudoPassword: '',
  };
}

const optional = (value: string) => (value === '' ? undefined : value);

function credential(form: TServerForm): Partial<TSshServerInput> {
  switch (form.login) {
    case 'password':
      return { authKind: 'password', password: optional(form.password) };
    case 'paste':
      return {
        authKind: 'key',
        privateKey: optional(form.privateKey),
        passphrase: optional(form.passphrase),
        sudoPassword: optional(form.sudoPassword),
      };
    case 'generate':
      return { authKind: 'key', generateKey: true, sudoPassword: optional(form.sudoPassword) };
    default:
      return {};
  }
}

/** The API's field an issue of the shared schema belongs to, as the dialog names it. */
function formField(path: PropertyKey | undefined): keyof TServerForm {
  if (path === 'authKind' || path === 'generateKey') return 'login';
  return FORM_FIELDS.find((field) => field === path) ?? 'name';
}

export type TFormCheck<T> =
  | { ok: true; input: T }
  | { ok: false; issues: { field: keyof TServerForm; message: string }[] };

function check<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): TFormCheck<T> {
  if (result.success) return { ok: true, input: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      field: formField(issue.path[0]),
      message: issue.message,
    })),
  };
}

/** A new server's request, checked by the API's own schema (its messages are catalog keys). */
export function createInput(form: TServerForm): TFormCheck<TSshServerInput> {
  return check(
    ZSshServerInput.safeParse({
      name: form.name,
      host: form.host.trim(),
      port: Number(form.port),
      username: form.username.trim(),
      description: optional(form.description.trim()) ?? null,
      ...credential(form),
    }),
  );
}

/**
 * A change: only the fields that differ (a moved server loses its secrets, so an unchanged
 * host, port or user is not sent), and the new login when one was chosen.
 */
export function updateInput(server: TSshServer, form: TServerForm): TFormCheck<TSshServerUpdate> {
  const port = Number(form.port);
  const description = optional(form.description.trim()) ?? null;
  const changed: Record<string, unknown> = {};
  if (form.name !== server.name) changed.name = form.name;
  if (form.host.trim() !== server.host) changed.host = form.host.trim();
  if (port !== server.port) changed.port = port;
  if (form.username.trim() !== server.username) changed.username = form.username.trim();
  if (description !== server.description) changed.description = description;
  return check(ZSshServerUpdate.safeParse({ ...changed, ...credential(form) }));
}

/** The dialog's field a refused key belongs to (the API names the problem in its code). */
export const FIELD_BY_CODE: Partial<Record<string, keyof TServerForm>> = {
  ssh_key_too_large: 'privateKey',
  ssh_key_public_key: 'privateKey',
  ssh_key_dsa: 'privateKey',
  ssh_key_unsupported_type: 'privateKey',
  ssh_key_unreadable: 'privateKey',
  ssh_key_passphrase_required: 'passphrase',
  ssh_key_wrong_passphrase: 'passphrase',
  ssh_key_passphrase_not_needed: 'passphrase',
};
