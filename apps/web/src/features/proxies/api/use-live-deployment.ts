import type { TWsMessage } from '@portico/shared/proxy/api';
import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { mergeLogLines, serverLine, type TLogLine } from '@/lib/live-deployment/logs';
import { useDeploymentSocket } from '@/lib/live-deployment/use-deployment-socket';
import { invalidateProxy } from './invalidate';

/**
 * While `active`, follows the configuration's log socket (the one the wizard follows): new log
 * lines arrive in `lines` (the socket replays the current run; lines are deduplicated by id) and
 * a status change makes the configuration, the list and the stored logs be read again.
 */
export function useLiveDeployment(configId: string, active: boolean) {
  const queryClient = useQueryClient();
  const [lines, setLines] = React.useState<TLogLine[]>([]);
  const [lastStatus, setLastStatus] = React.useState<TProxyStatus | null>(null);

  const onMessage = React.useCallback(
    (message: TWsMessage) => {
      if (message.type === 'deployment_progress') {
        setLines((current) => mergeLogLines(current, [serverLine(message.data)]));
        return;
      }
      setLastStatus(message.data.status);
      void invalidateProxy(queryClient, configId);
    },
    [queryClient, configId],
  );
  const state = useDeploymentSocket(active ? configId : null, onMessage);

  return { lines, connected: state === 'open', lastStatus };
}
