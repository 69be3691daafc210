/**
 * Every action the server writes to the audit trail. The server's `audit.record` accepts only
 * these, and the admin's audit page has words for each in both languages (a catalog test checks
 * it), so no entry reaches a reader as a raw identifier.
 */
export const AUDIT_ACTIONS = [
  'proxy.create',
  'proxy.save',
  'proxy.edit',
  'proxy.admin_edit',
  'proxy.deploy',
  'proxy.redeploy',
  'proxy.reset',
  'proxy.forget_host_key',
  'proxy.delete',
  'proxy.delete_with_removal',
  'proxy.certificate_renew',
  'proxy.certificate_test',
  'proxy.adopt',
  'proxy.convert',
  'proxy.convert_failed',
  'ssh_server.create',
  'ssh_server.update',
  'ssh_server.delete',
  'ssh_server.forget_host_key',
  'ssh_server.scan',
  'admin.user.role',
  'admin.user.limits',
  'account.profile',
  'account.email',
  'account.password',
  'account.two_factor_on',
  'account.two_factor_off',
  'account.two_factor_reset',
  'account.recovery_codes_new',
  'account.recovery_code_used',
  'account.token_create',
  'account.token_revoke',
  'account.session_end',
  'account.sessions_end_others',
  'account.notifications',
  'account.export',
  'account.import',
] as const;

export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

/** The catalog key of an action's words: "proxy.admin_edit" → "proxy_admin_edit". */
export function auditActionKey(action: string): string {
  return action.replace(/[.\s-]/g, '_');
}
