import { z } from 'zod';
import { ZCertificateFacts } from './schemas';

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

/** What Portico keeps of an uploaded certificate that may be shown: never the key. */
export const ZCustomCertificate = ZCertificateFacts.extend({
  issuer: z.string(),
  names: z.array(z.string()),
  uploadedAt: z.string(),
});
export type TCustomCertificate = z.infer<typeof ZCustomCertificate>;
