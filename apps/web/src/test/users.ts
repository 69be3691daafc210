import type { TPublicUser } from '@portico/shared/auth/schemas';

/** A signed-in user as the session answer gives it: no names, no picture, two-factor off. */
export const TEST_USER: TPublicUser = {
  id: '7b0c6c1e-0000-4000-8000-000000000001',
  username: 'jane_doe',
  email: 'jane@example.com',
  role: 'user',
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
};
