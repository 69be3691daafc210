import { z } from 'zod';

export { type TCustomCertificate, ZCustomCertificate } from './schemas';

/**
 * Your own certificate (issue 41): PUT /api/proxy-configurations/{id}/certificate/custom. Both
 * PEM; the chain leaf first. The limits are far above any real chain (a few KiB) and below the
 * request's own 1 MiB: a larger body is refused whole (413) before it is read.
 */
export const CUSTOM_CHAIN_MAX = 256 * 1024;
export const CUSTOM_KEY_MAX = 64 * 1024;

export const ZCustomCertificateInput = z.object({
  certificate: z.string().min(1, 'validation.required').max(CUSTOM_CHAIN_MAX, 'validation.tooLong'),
  privateKey: z.string().min(1, 'validation.required').max(CUSTOM_KEY_MAX, 'validation.tooLong'),
});
export type TCustomCertificateInput = z.infer<typeof ZCustomCertificateInput>;
