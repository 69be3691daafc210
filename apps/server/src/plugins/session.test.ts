import { Signer } from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import { sessionSigner } from './session';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('the session cookie signer', () => {
  const ours = sessionSigner(SECRET);
  const theirs = new Signer(SECRET);

  it('signs as @fastify/cookie does, so cookies from before still verify, and again the same', () => {
    expect(ours.sign('sid-1')).toBe(theirs.sign('sid-1'));
    expect(ours.sign('sid-1')).toBe(theirs.sign('sid-1'));
    expect(ours.unsign(theirs.sign('sid-2'))).toEqual({
      valid: true,
      renew: false,
      value: 'sid-2',
    });
    expect(theirs.unsign(ours.sign('sid-3'))).toMatchObject({ valid: true, value: 'sid-3' });
  });

  it('refuses a changed id, a changed or missing signature, and another secret', () => {
    const signed = ours.sign('sid-4');
    const refused = { valid: false, renew: false, value: null };
    expect(ours.unsign(signed.replace('sid-4', 'sid-5'))).toEqual(refused);
    expect(ours.unsign(`${signed.slice(0, -1)}A`)).toEqual(refused);
    expect(ours.unsign('sid-4')).toEqual(refused);
    expect(ours.unsign('sid-4.')).toEqual(refused);
    expect(ours.unsign('.abc')).toEqual(refused);
    expect(ours.unsign(new Signer(`${SECRET}-other`).sign('sid-4'))).toEqual(refused);
  });
});
