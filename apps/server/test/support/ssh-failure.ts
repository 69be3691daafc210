import { expect } from 'vitest';
import { SshError } from '../../src/deploy/ssh';

/** The SshError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function sshFailure(promise: Promise<unknown>): Promise<SshError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SshError);
  return error as SshError;
}
