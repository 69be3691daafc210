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

  it('issues land on the field that holds them', () => {
    expect(draftFieldOf(['deny', 0])).toBe('deny');
    expect(draftFieldOf(['basicAuth', 1, 'password'])).toBe('users.1');
    expect(draftFieldOf(['redirect', 'to'])).toBe('redirectTo');
    expect(draftFieldOf(['redirect', 'code'])).toBe('redirectCode');
  });
});
