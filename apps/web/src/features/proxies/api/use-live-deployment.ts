import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { currentLanguage } from '@/lib/i18n';
import { deploymentSocketUrl, openLiveSocket } from '../lib/live-socket';
import { entryFromMessage, mergeLogs, type TLogEntry } from '../lib/logs';
import { invalidateProxy } from './invalidate';

/**
 * While `active`, follows /ws?configId= (same socket as the wizard): new log lines arrive in
 * `entries` (the socket replays the current run; lines are deduplicated by id) and a status change
 * makes the configuration, the list and the stored logs be read again.
 */
export function useLiveDeployment(configId: string, active: boolean) {
  const queryClient = useQueryClient();
  const [entries, setEntries] = React.useState<TLogEntry[]>([]);
  const [connected, setConnected] = React.useState(false);
  const [lastStatus, setLastStatus] = React.useState<TProxyStatus | null>(null);

  React.useEffect(() => {
    if (!active) return;
    return openLiveSocket({
      url: deploymentSocketUrl(configId, window.location, currentLanguage()),
      onConnectedChange: setConnected,
      onMessage: (message) => {
        if (message.type === 'deployment_progress') {
          const entry = entryFromMessage(message);
          setEntries((current) => mergeLogs(current, [entry]));
          return;
        }
        setLastStatus(message.data.status);
        void invalidateProxy(queryClient, configId);
      },
    });
  }, [active, configId, queryClient]);

  return { entries, connected, lastStatus };
}
