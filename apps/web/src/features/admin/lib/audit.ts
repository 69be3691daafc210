import { AUDIT_SECRET_MARK } from '@portico/shared/admin/api';
import { AUDIT_ACTIONS, auditActionKey } from '@portico/shared/admin/audit-actions';
import type { TFunction } from 'i18next';

// Actions the server writes (the shared list), and three only older entries carry; anything
// else is shown as it is stored.
const KNOWN_ACTIONS = new Set([
  ...AUDIT_ACTIONS.map(auditActionKey),
  'user_role_change',
  'destination_create',
  'destination_update',
  'destination_delete',
]);

// Fields whose stored values are words of a fixed set, shown in the reader's language.
const WORDED_VALUES = new Set(['tokenScope', 'proof', 'outcome']);

/** The action in plain words, e.g. "proxy.admin_edit" → "edited as admin" / "editó como administrador". */
export function auditActionText(action: string, t: TFunction): string {
  const key = auditActionKey(action);
  return KNOWN_ACTIONS.has(key) ? t(`admin.audit.actions.${key}`) : action.replace(/[_.-]/g, ' ');
}

/** A changed field by its label on the screens, e.g. "sshPasswordEnc" → "SSH password". */
export function auditFieldText(field: string, t: TFunction): string {
  // A field the catalogs do not name is shown as the server stored it.
  return t(`admin.audit.fields.${field}`, { defaultValue: field });
}

/**
 * A before/after value as short text; empty values read "(empty)" in the current language. Roles
 * and statuses read as on the other screens; a secret reads "changed" (the trail holds no value).
 */
export function auditValueText(value: unknown, t: TFunction, field?: string): string {
  if (value === null || value === undefined || value === '') return t('admin.audit.emptyValue');
  if (value === AUDIT_SECRET_MARK) return t('admin.audit.secretChanged');
  if (typeof value === 'string' && (field === 'role' || field === 'status')) {
    const key = field === 'role' ? `admin.users.roles.${value}` : `proxies.status.${value}`;
    return t(key, { defaultValue: value });
  }
  if (typeof value === 'string' && field && WORDED_VALUES.has(field)) {
    return t(`admin.audit.values.${field}.${value}`, { defaultValue: value });
  }
  if (typeof value === 'boolean') return value ? t('admin.common.yes') : t('admin.common.no');
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

// The server names targets by table ('proxy_configuration'); the screens by what they are.
const TARGET_KINDS: Record<string, 'proxy' | 'user' | 'destination' | 'server'> = {
  proxy: 'proxy',
  proxy_configuration: 'proxy',
  user: 'user',
  destination: 'destination',
  destination_server: 'destination',
  ssh_server: 'server',
};

/** A target in words: its type and its name when known (a domain, a username), else its id. */
export function auditTargetText(
  targetType: string,
  targetId: string,
  t: TFunction,
  name?: string,
): string {
  const kind = TARGET_KINDS[targetType];
  const type = kind ? t(`admin.audit.targets.${kind}`) : targetType;
  return `${type} ${name ?? targetId}`;
}
