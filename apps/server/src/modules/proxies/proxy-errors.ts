import { AppError, KeyedAppError } from '../../lib/app-error';

export const proxyErrors = {
  notFound: () => new AppError('not_found', 404),
  domainTaken: () => new KeyedAppError('domain_taken', 409, 'errors.domainTaken'),
  // Another account's: the words say neither whose it is nor that an owner exists.
  domainManaged: () => new KeyedAppError('domain_managed', 409, 'errors.domainManaged'),
  deploymentRunning: () => new KeyedAppError('deployment_running', 409, 'errors.deploymentRunning'),
  adopted: (file: string) =>
    new KeyedAppError('proxy_adopted', 409, 'errors.proxyAdopted', { file }),
  needsTarget: () => new KeyedAppError('deploy_needs_target', 400, 'errors.deployNeedsTarget'),
  needsPassword: () =>
    new KeyedAppError('deploy_needs_password', 400, 'errors.deployNeedsPassword'),
  // A recorded site on a server the saved password was not entered for (the row was edited).
  removeNeedsPassword: (target: string) =>
    new KeyedAppError('remove_needs_password', 400, 'errors.removeNeedsPassword', { target }),
  secretKeyUnreadable: () =>
    new KeyedAppError('secret_key_unreadable', 500, 'errors.secretKeyUnreadable'),
  // Same code (clients handle both alike); the words say the row, not the key file, is the cause.
  secretUndecryptable: () =>
    new KeyedAppError('secret_key_unreadable', 500, 'errors.secretUndecryptable'),
  serverUnreachable: (reason: string) =>
    new KeyedAppError('server_unreachable', 502, 'errors.serverUnreachable', { reason }),
  removeFailed: (reason: string) =>
    new KeyedAppError('remove_failed', 502, 'errors.removeFailed', { reason }),
};

/**
 * An adopted site's hand-written file is never overwritten: deploying, editing or renewing it
 * from Portico is refused until a conversion (not built yet) makes it Portico's.
 */
export function refuseAdopted(row: { origin: string; adoptedFile: string | null }): void {
  if (row.origin === 'adopted') throw proxyErrors.adopted(row.adoptedFile ?? '');
}
