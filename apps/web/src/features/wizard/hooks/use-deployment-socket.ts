import { type TWsMessage, ZWsMessage } from '@portico/shared/proxy/api';
import * as React from 'react';
import { currentLanguage } from '@/lib/i18n';
import { logSocketUrl, ReconnectingSocket, type TSocketState } from './reconnecting-socket';

/**
 * Follows a configuration's deployment over /ws while mounted with an id; closes on unmount
 * (leaving the step). Returns the socket state so the caller can poll while it is not open.
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
      onMessage: (data) => {
        const parsed = ZWsMessage.safeParse(data);
        // Other message types are ignored.
        if (parsed.success) handler.current(parsed.data);
      },
    });
    return () => {
      socket.close();
      setState('closed');
    };
  }, [configurationId]);

  return state;
}
