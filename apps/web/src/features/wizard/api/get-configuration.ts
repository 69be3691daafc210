import { useQuery } from '@tanstack/react-query';
import { proxyConfigurationQueryOptions } from '@/lib/live-deployment/queries';

/** One configuration; `pollMs` polls it while the log socket is down (`deploymentPollMs`). */
export function useConfiguration(id: string | null, { pollMs }: { pollMs?: number | false } = {}) {
  return useQuery({
    ...proxyConfigurationQueryOptions(id ?? ''),
    enabled: Boolean(id),
    refetchInterval: pollMs ?? false,
  });
}
