import {
  ZDomain,
  ZServerInfoInput,
  ZServerIp,
  ZSshPassword,
  ZSshUser,
} from '@portico/shared/proxy/schemas';
import { z } from 'zod';

/** The port as typed (text), with the API's messages (validation.port.*). */
const ZPortText = z
  .string()
  .trim()
  .regex(/^\d+$/, 'validation.port.number')
  .refine((v) => Number(v) >= 1, 'validation.port.min')
  .refine((v) => Number(v) <= 65535, 'validation.port.max');

/**
 * Step one's form: the shared server info schema plus the SSH port; a resumed configuration with
 * a stored password may leave the password empty to keep it (docs/PRODUCT.md#proxy-wizard).
 */
export function serverInfoSchema(hasSavedPassword: boolean) {
  return ZServerInfoInput.extend({
    sshPassword: hasSavedPassword ? z.union([z.literal(''), ZSshPassword]) : ZSshPassword,
    sshPort: ZPortText,
  });
}
export type TServerInfoForm = z.input<ReturnType<typeof serverInfoSchema>>;
export type TServerInfoValues = z.output<ReturnType<typeof serverInfoSchema>>;

/** Which fields pass, for the green check marks (computed from the values, not from touch). */
export function passingFields(values: Partial<TServerInfoForm>, hasSavedPassword: boolean) {
  const password = values.sshPassword ?? '';
  return {
    serverIp: ZServerIp.safeParse(values.serverIp ?? '').success,
    domain: ZDomain.safeParse(values.domain ?? '').success,
    sshUser: ZSshUser.safeParse(values.sshUser ?? '').success,
    sshPassword: password === '' ? hasSavedPassword : ZSshPassword.safeParse(password).success,
  };
}
