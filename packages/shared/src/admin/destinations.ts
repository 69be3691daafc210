import { z } from 'zod';
import { isManualDestination } from '../validation/rules';
import { ZCleanString } from '../validation/text';

// Admin input for destination servers (docs/PRODUCT.md#destination-servers). Messages are catalog keys.
const ZName = ZCleanString().min(1, 'validation.required').max(100, 'validation.tooLong');
const ZEndpoint = ZCleanString('validation.target.required')
  .min(1, 'validation.target.required')
  .max(2048, 'validation.tooLong')
  .refine(isManualDestination, 'validation.target.invalid');
/** Optional text: empty or blank is stored as null. */
const ZOptionalText = ZCleanString()
  .max(500, 'validation.tooLong')
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));

export const ZDestinationInput = z.object({
  name: ZName,
  endpoint: ZEndpoint,
  description: ZOptionalText,
  isActive: z.boolean().default(true),
  maintenanceNote: ZOptionalText,
});
export type TDestinationInput = z.infer<typeof ZDestinationInput>;

/** PUT: any subset of the fields; what is absent stays as it is. */
export const ZDestinationUpdate = z.object({
  name: ZName.optional(),
  endpoint: ZEndpoint.optional(),
  description: ZCleanString().max(500, 'validation.tooLong').nullable().optional(),
  isActive: z.boolean().optional(),
  maintenanceNote: ZCleanString().max(500, 'validation.tooLong').nullable().optional(),
});
export type TDestinationUpdate = z.infer<typeof ZDestinationUpdate>;
