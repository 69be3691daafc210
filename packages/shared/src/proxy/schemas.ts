import { z } from 'zod';
import { ZEmail } from '../auth/schemas';
import { siteDomainIssue } from '../certificates/dns-challenge';
import { sshAddressProblem } from '../validation/reachability';
import {
  hasControlCharacter,
  isCertificateEmail,
  isDomain,
  isHost,
  isHttpUrl,
  isIpv4,
  isIpv4WithLeadingZero,
  isManualDestination,
} from '../validation/rules';
import { ZCleanString } from '../validation/text';
import { redirectLoops, type TProxyOptionsInput, ZProxyOptionsInput } from './options';

// Messages are translation keys (see ../locales). Server and wizard share these schemas.

const ZRequiredText = (key = 'validation.required') => ZCleanString(key).min(1, key);

/** An address with a leading zero gets its own words: it looks valid, but means another host. */
const noLeadingZero = { message: 'validation.ip.leadingZero', abort: true } as const;

/**
 * Addresses that are never a server (this network, link-local, multicast, reserved) are refused
 * with words saying why; loopback is the server's call (PORTICO_SSH_ALLOW_LOOPBACK).
 */
function notAServer(v: string, ctx: z.RefinementCtx) {
  const problem = isIpv4(v) ? sshAddressProblem(v) : undefined;
  if (problem && problem !== 'loopback') {
    ctx.addIssue({ code: 'custom', message: `validation.ip.${problem}` });
  }
}

export const ZServerIp = ZRequiredText()
  .refine((v) => !isIpv4WithLeadingZero(v), noLeadingZero)
  .refine(isIpv4, 'validation.ip.invalid')
  .superRefine(notAServer);
// Checked before lower-casing: toLowerCase maps the Kelvin sign (U+212A) to an ASCII k.
export const ZDomain = ZRequiredText()
  .refine(isDomain, 'validation.domain.invalid')
  .transform((v) => v.toLowerCase());
/** A proxy's domain: ZDomain's rules, or a wildcard `*.example.com` (DNS-01, issue 41). */
export const ZSiteDomain = ZRequiredText()
  .superRefine((v, ctx) => {
    const issue = siteDomainIssue(v);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  })
  .transform((v) => v.toLowerCase());
export const ZSshUser = ZRequiredText()
  .max(32, 'validation.sshUser.invalid')
  .regex(/^[a-z_][a-z0-9_-]*$/, 'validation.sshUser.invalid');
/** Taken as typed (spaces count), but never with a control character: see hasControlCharacter. */
export const ZSshPassword = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .max(1024, 'validation.tooLong')
  .refine((v) => !hasControlCharacter(v), 'validation.sshPassword.control');
/**
 * A TCP port: a whole number, or a string of digits only. No coercion beyond that: `true`,
 * `[22]`, `' 22'`, `'22\n'`, `'+22'`, `'0x16'` or `'1e3'` are refused, not read as some port.
 */
export const ZPort = z.preprocess(
  (v) => (typeof v === 'string' && /^[0-9]{1,5}$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'validation.port.number' })
    .int('validation.port.number')
    .min(1, 'validation.port.min')
    .max(65535, 'validation.port.max'),
);

export const ZTargetServer = ZRequiredText('validation.target.required').refine(
  isManualDestination,
  'validation.target.invalid',
);

/** The certificate e-mail: a valid address that certbot cannot mistake for anything else. */
export const ZCertificateEmail = ZEmail.refine(isCertificateEmail, 'validation.email.invalid');

/** Step one of the wizard (docs/PRODUCT.md#proxy-wizard, #validation-rules). */
export const ZServerInfoInput = z.object({
  serverIp: ZServerIp,
  // A wildcard too: the wizard then asks for its DNS-01 provider (issue 41).
  domain: ZSiteDomain,
  sshUser: ZSshUser.default('root'),
  sshPassword: ZSshPassword,
  email: ZCertificateEmail,
});

/** A redirect host pointing at the proxy's own domain: refused on the field. */
export function noRedirectLoop(
  v: { domain: string; options?: TProxyOptionsInput },
  ctx: z.RefinementCtx,
) {
  if (redirectLoops(v.domain, v.options)) {
    ctx.addIssue({
      code: 'custom',
      message: 'proxyOptions.invalid.redirectLoop',
      path: ['options', 'redirect', 'to'],
    });
  }
}

/**
 * The edit dialog (docs/PRODUCT.md#edit-dialog): the SSH port is stored and used. `options`
 * replace the stored ones when sent (a user sent without a password keeps the stored hash).
 */
export const ZEditProxyInput = z
  .object({
    domain: ZRequiredText('validation.edit.domainRequired')
      .superRefine((v, ctx) => {
        const issue = siteDomainIssue(v);
        if (issue === 'validation.domain.invalid') {
          ctx.addIssue({ code: 'custom', message: 'validation.edit.domainInvalid' });
        } else if (issue) ctx.addIssue({ code: 'custom', message: issue });
      })
      .transform((v) => v.toLowerCase()),
    targetServer: ZRequiredText('validation.edit.targetRequired').refine(
      (v) => isHttpUrl(v) || isManualDestination(v),
      'validation.edit.targetInvalid',
    ),
    serverIp: ZRequiredText('validation.edit.serverIpRequired')
      .refine((v) => !isIpv4WithLeadingZero(v), noLeadingZero)
      .refine(isHost, 'validation.edit.serverIpInvalid')
      .superRefine(notAServer),
    sshUser: ZRequiredText('validation.edit.sshUserRequired').regex(
      /^[a-z_][a-z0-9_-]{0,31}$/,
      'validation.sshUser.invalid',
    ),
    sshPort: ZPort.default(22),
    options: ZProxyOptionsInput.optional(),
    /**
     * Moves the proxy to another of its owner's saved servers: its address, port and user are
     * taken from there (the fields above are then ignored).
     */
    sshServerId: z.uuid('validation.invalidId').optional(),
  })
  .superRefine(noRedirectLoop);
export type TEditProxyInput = z.infer<typeof ZEditProxyInput>;

export const PROXY_STATUSES = [
  'pending',
  'dns-validated',
  'deploying',
  'completed',
  'failed',
  'deployed',
  'error',
] as const;
export const ZProxyStatus = z.enum(PROXY_STATUSES);
export type TProxyStatus = z.infer<typeof ZProxyStatus>;

export const LOG_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export const ZLogLevel = z.enum(LOG_LEVELS);
export type TLogLevel = z.infer<typeof ZLogLevel>;
