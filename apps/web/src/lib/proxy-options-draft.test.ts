import { ZProxyOptionsInput } from '@portico/shared/proxy/options';
import { describe, expect, it } from 'vitest';
import { draftFieldOf, draftOf, optionsOf } from './proxy-options-draft';

describe('the options draft', () => {
  it('an empty draft is no options', () => {
    expect(optionsOf(draftOf({}))).toEqual({});
  });

  it('lines become lists the shared schema takes, and shown again the same', () => {
    const draft = {
      ...draftOf({}),
      upstreams: 'http://10.0.0.1:8080\n\n  http://10.0.0.2:8080 weight=3 backup  ',
      loadBalancing: 'least_conn' as const,
      hsts: true,
      hstsMaxAge: '600',
      headers: 'X-Frame-Options: DENY',
      allow: '10.0.0.0/8',
      locations: '/api/ http://10.0.0.9:9000',
      users: [{ username: 'ana', password: 'long password', hasPassword: false }],
      websocket: false,
      compression: 'on' as const,
    };
    const options = ZProxyOptionsInput.parse(optionsOf(draft));
    expect(options).toEqual({
      upstreams: [
        { url: 'http://10.0.0.1:8080' },
        { url: 'http://10.0.0.2:8080', weight: 3, backup: true },
      ],
      loadBalancing: 'least_conn',
      hsts: { maxAge: 600, includeSubDomains: false, preload: false },
      headers: [{ name: 'X-Frame-Options', value: 'DENY' }],
      websocket: false,
      compression: true,
      basicAuth: [{ username: 'ana', password: 'long password' }],
      allow: ['10.0.0.0/8'],
      locations: [{ path: '/api/', upstreams: [{ url: 'http://10.0.0.9:9000' }] }],
    });
    const { basicAuth: _, ...view } = options;
    const again = draftOf({ ...view, basicAuth: [{ username: 'ana', hasPassword: true }] });
    expect(again.users).toEqual([{ username: 'ana', password: '', hasPassword: true }]);
    // A user shown again without a typed password is sent without one: the server keeps its hash.
    expect(optionsOf(again).basicAuth).toEqual([{ username: 'ana' }]);
    expect(optionsOf(again).upstreams).toEqual(options.upstreams);
  });

  it('passive health and timeouts go as typed, come back the same, and keep what the API set', () => {
    const draft = {
      ...draftOf({}),
      maxFails: '3',
      failTimeout: ' 30 ',
      timeoutConnect: '5',
      timeoutRead: '600',
    };
    const options = ZProxyOptionsInput.parse(optionsOf(draft));
    expect(options).toEqual({
      health: { maxFails: 3, failTimeout: 30 },
      timeouts: { connect: 5, read: 600 },
    });
    // Stored options shown again and saved untouched are the same options (none dropped).
    const stored = { health: { maxFails: 0, failTimeout: 3600 }, timeouts: { send: 86400 } };
    expect(optionsOf(draftOf(stored))).toEqual(stored);
    // One health field alone keeps nginx's default for the other.
    expect(optionsOf({ ...draftOf({}), failTimeout: '20' }).health).toEqual({
      maxFails: 1,
      failTimeout: 20,
    });
    // Not a number: the shared schema refuses it, on its own field.
    const refused = ZProxyOptionsInput.safeParse(optionsOf({ ...draftOf({}), timeoutRead: 'x' }));
    expect(refused.success).toBe(false);
    expect(draftFieldOf(refused.error!.issues[0]!.path)).toBe('timeoutRead');
  });

  it('issues land on the field that holds them', () => {
    expect(draftFieldOf(['health', 'maxFails'])).toBe('maxFails');
    expect(draftFieldOf(['health', 'failTimeout'])).toBe('failTimeout');
    expect(draftFieldOf(['timeouts', 'connect'])).toBe('timeoutConnect');
    expect(draftFieldOf(['timeouts', 'send'])).toBe('timeoutSend');
    expect(draftFieldOf(['deny', 0])).toBe('deny');
    expect(draftFieldOf(['basicAuth', 1, 'password'])).toBe('users.1');
    expect(draftFieldOf(['redirect', 'to'])).toBe('redirectTo');
    expect(draftFieldOf(['redirect', 'code'])).toBe('redirectCode');
  });
});
