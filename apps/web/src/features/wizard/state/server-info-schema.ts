import {
  ZServerInfoInput,
  ZServerIp,
  ZSiteDomain,
  ZSshPassword,
  ZSshUser,
} from '@portico/shared/proxy/schemas';
import { ZCleanString } from '@portico/shared/validation/text';
import { z } from 'zod';
import type { TPasswordTarget, TWizardData } from './wizard-types';

/** The port as typed (text), with the API's messages (validation.port.*). */
const ZPortText = ZCleanString()
  .regex(/^\d+$/, 'validation.port.number')
  .refine((v) => Number(v) >= 1, 'validation.port.min')
  .refine((v) => Number(v) <= 65535, 'validation.port.max');

/** The form's server, port and user are the ones the saved password was entered for. */
function keepsSavedPassword(
  values: { serverIp?: string; sshUser?: string; sshPort?: string },
  savedFor: TPasswordTarget | null,
): boolean {
  return (
    savedFor !== null &&
    values.serverIp?.trim() === savedFor.serverIp &&
    values.sshUser?.trim() === savedFor.sshUser &&
    Number(values.sshPort) === savedFor.sshPort
  );
}

/** A deployment can start: a password was typed, or the saved one was entered for this target. */
export function hasUsablePassword(data: TWizardData): boolean {
  return (
    data.sshPassword !== '' ||
    keepsSavedPassword({ ...data, sshPort: String(data.sshPort) }, data.savedPasswordFor)
  );
}

/**
 * Step one's form: the shared server info schema plus the SSH port. A resumed configuration with
 * a stored password may leave the password empty to keep it (docs/PRODUCT.md#proxy-wizard), but only while the server, port and
 * user stay the ones it was entered for: the server never sends it anywhere else.
 */
export function serverInfoSchema(savedFor: TPasswordTarget | null) {
  return ZServerInfoInput.extend({
    sshPassword: savedFor ? z.union([z.literal(''), ZSshPassword]) : ZSshPassword,
    sshPort: ZPortText,
  }).superRefine((v, ctx) => {
    if (
      v.sshPassword === '' &&
      !keepsSavedPassword({ ...v, sshPort: String(v.sshPort) }, savedFor)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['sshPassword'],
        message: 'validation.sshPassword.newServer',
      });
    }
  });
}
export type TServerInfoForm = z.input<ReturnType<typeof serverInfoSchema>>;
export type TServerInfoValues = z.output<ReturnType<typeof serverInfoSchema>>;

/** Which fields pass, for the green check marks (computed from the values, not from touch). */
export function passingFields(values: Partial<TServerInfoForm>, savedFor: TPasswordTarget | null) {
  const password = values.sshPassword ?? '';
  return {
    serverIp: ZServerIp.safeParse(values.serverIp ?? '').success,
    domain: ZSiteDomain.safeParse(values.domain ?? '').success,
    sshUser: ZSshUser.safeParse(values.sshUser ?? '').success,
    sshPassword:
      password === ''
        ? keepsSavedPassword(values, savedFor)
        : ZSshPassword.safeParse(password).success,
  };
}
