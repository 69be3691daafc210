import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { ZLoginInput, ZRegisterForm, ZRegisterInput } from './schemas';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

const valid = { username: 'ana_1', email: 'ana@example.com', password: 'Secret123' };

describe('ZRegisterInput', () => {
  it.each([
    [{ username: '' }, 'validation.required', 'This field is required'],
    [{ username: 'ab' }, 'validation.username.min', 'Username must be at least 3 characters long'],
    [
      { username: 'a'.repeat(31) },
      'validation.username.max',
      'Username must be no more than 30 characters',
    ],
    [
      { username: 'ana-1' },
      'validation.username.pattern',
      'Username can only contain letters, numbers, and underscores',
    ],
    [{ email: 'not-an-email' }, 'validation.email.invalid', 'Please enter a valid email address'],
    [{ password: 'Ab1' }, 'validation.password.min', 'Password must be at least 8 characters long'],
    [
      { password: 'alllowercase1' },
      'validation.password.complexity',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [{ password: 'NoDigitsHere' }, 'validation.password.complexity', undefined],
    [{ password: 'NOLOWER123' }, 'validation.password.complexity', undefined],
  ])('refuses %o with %s', (patch, key, english) => {
    const message = firstMessage(ZRegisterInput.safeParse({ ...valid, ...patch }));
    expect(message).toBe(key);
    if (english) expect(translate('en', key)).toBe(english);
    expect(translate('es', key)).not.toBe(key);
  });

  it('accepts a valid body and drops a role field', () => {
    const parsed = ZRegisterInput.parse({ ...valid, role: 'admin' });
    expect(parsed).toEqual(valid);
    expect('role' in parsed).toBe(false);
  });

  it('trims the username and e-mail', () => {
    expect(ZRegisterInput.parse({ ...valid, username: ' ana_1 ', email: ' a@b.co ' })).toEqual({
      ...valid,
      email: 'a@b.co',
    });
  });
});

describe('ZRegisterForm', () => {
  it('asks for matching passwords on the confirmation field', () => {
    const result = ZRegisterForm.safeParse({ ...valid, confirmPassword: 'Other123' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['confirmPassword']);
    expect(translate('en', result.error?.issues[0]?.message ?? '')).toBe('Passwords must match');
  });
});

describe('ZLoginInput', () => {
  it.each([
    [{ identifier: '' }, 'Username or email is required'],
    [{ password: '' }, 'Password is required'],
  ])('refuses %o', (patch, english) => {
    const message = firstMessage(
      ZLoginInput.safeParse({ identifier: 'ana', password: 'x', ...patch }),
    );
    expect(translate('en', message ?? '')).toBe(english);
  });
});
