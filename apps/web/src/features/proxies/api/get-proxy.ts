import { useQuery } from '@tanstack/react-query';
import { deploymentPollMs, proxyConfigurationQueryOptions } from '@/lib/live-deployment/queries';

/**
 * The configuration; while it is deploying and `socketUp()` says the live socket is down, it is
 * read again on the live-deployment polling policy so the page never freezes on a lost socket.
 */
export function useProxy(id: string, socketUp: () => boolean = () => true) {
  return useQuery({
    ...proxyConfigurationQueryOptions(id),
    refetchInterval: (query) =>
      deploymentPollMs(query.state.data?.status === 'deploying', socketUp()),
  });
}
