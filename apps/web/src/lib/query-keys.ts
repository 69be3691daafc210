/** The session answer (GET /api/auth/user); lib code needs it to react to an expired session. */
export const sessionQueryKey = ['/api/auth/user'] as const;
