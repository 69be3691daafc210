import type { TPublicUser } from '@portico/shared/auth/schemas';

/** The admin screens' paths; the router reads them without loading the screens. */
export const ADMIN_ROUTES = {
  audit: '/admin/audit',
  users: '/admin/users',
  destinations: '/admin/destinations',
  certificates: '/admin/certificates',
} as const;

export function isAdmin(user: Pick<TPublicUser, 'role'> | null | undefined): boolean {
  return user?.role === 'admin';
}
