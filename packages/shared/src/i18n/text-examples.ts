import type { TText } from './text';

/**
 * A stored sentence with every kind of parameter (a number with its digits, plain strings), for
 * the tests on each side that render texts: the shared renderer and the web's log lines.
 */
export const RUN_COMPLETE_TEXT: TText = {
  key: 'deployLog.run.complete',
  params: {
    seconds: { number: 4.6, digits: 1 },
    domain: 'app.example.com',
    serverIp: '203.0.113.10',
    target: 'http://10.0.0.5:8080',
  },
};
