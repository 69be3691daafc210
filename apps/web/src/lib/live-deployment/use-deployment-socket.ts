import type { TWsMessage } from '@portico/shared/proxy/api';
import * as React from 'react';
import { currentLanguage } from '@/lib/i18n';
import { logSocketUrl, ReconnectingSocket, type TSocketState } from './reconnecting-socket';

/**
 * Follows a configuration's deployment over /ws while mounted with an id (null: not following);
 * closes on unmount or when the id goes away. Returns the socket state so the caller polls while
 * it is not open (`deploymentPollMs`).
 */
export function useDeploymentSocket(
  configurationId: string | null,
  onMessage: (message: TWsMessage) => void,
): TSocketState {
  const [state, setState] = React.useState<TSocketState>('closed');
  const handler = React.useRef(onMessage);
  handler.current = onMessage;

  React.useEffect(() => {
    if (!configurationId) return;
    const socket = new ReconnectingSocket({
      url: logSocketUrl(configurationId, window.location, currentLanguage()),
      onStateChange: (next) => setState(next),
      onMessage: (message) => handler.current(message),
    });
    return () => {
      socket.close();
      setState('closed');
    };
  }, [configurationId]);

  return state;
}
