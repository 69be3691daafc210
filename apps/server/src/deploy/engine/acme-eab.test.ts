import { describe, expect, it } from 'vitest';
import { EAB_CONFIG_PATH, eabArgs, eabConfigFile } from './acme-eab';
import { StepError } from './failure';

describe('External Account Binding for certbot', () => {
  const eab = { kid: 'kid_ABC-123', hmacKey: 'aGVsbG8td29ybGQtaG1hYy1rZXk_' };

  it('puts only the config file in the arguments, the key in the file', () => {
    expect(eabArgs(eab)).toEqual(['--config', EAB_CONFIG_PATH]);
    expect(eabArgs(undefined)).toEqual([]);
    expect(eabArgs(eab).join(' ')).not.toContain(eab.hmacKey);
    expect(eabConfigFile(eab)).toBe(
      'eab-kid = kid_ABC-123\neab-hmac-key = aGVsbG8td29ybGQtaG1hYy1rZXk_\n',
    );
  });

  it.each([
    { kid: 'kid\neab-hmac-key = x', hmacKey: eab.hmacKey },
    { kid: 'kid', hmacKey: 'short' },
    { kid: 'kid', hmacKey: `${eab.hmacKey}\nserver = https://evil.example/` },
    { kid: '', hmacKey: eab.hmacKey },
  ])('refuses a value outside the allowlist without echoing it: %j', (bad) => {
    let thrown: unknown;
    try {
      eabConfigFile(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StepError);
    expect((thrown as StepError).code).toBe('invalid_input');
    expect(JSON.stringify(thrown)).not.toContain(bad.hmacKey);
    expect((thrown as Error).message).not.toContain(bad.hmacKey);
  });
});
