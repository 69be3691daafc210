import type { ZAuditPage } from '@portico/shared/admin/api';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api';

type TAuditPage = z.infer<typeof ZAuditPage>;
export type TAuditFilter = { userId?: string; proxyId?: string };

const AUDIT_PAGE_SIZE = 50;

function auditUrl(filter: TAuditFilter, before?: number): string {
  const params = new URLSearchParams();
  if (filter.userId) params.set('userId', filter.userId);
  if (filter.proxyId) params.set('proxyId', filter.proxyId);
  if (before) params.set('before', String(before));
  params.set('limit', String(AUDIT_PAGE_SIZE));
  return `/api/admin/audit-log?${params.toString()}`;
}

/** GET /api/admin/audit-log: newest first; "load more" follows nextCursor. */
export function useAuditLog(filter: TAuditFilter) {
  return useInfiniteQuery({
    queryKey: ['/api/admin/audit-log', filter],
    queryFn: ({ pageParam }) =>
      api.requestJson<TAuditPage>('GET', auditUrl(filter, pageParam ?? undefined)),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
