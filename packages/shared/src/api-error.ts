import { z } from 'zod';

/** Every error the API answers has this body; `message` is already in the caller's language. */
export const ZApiError = z.object({
  statusCode: z.number(),
  code: z.string(),
  message: z.string(),
  /**
   * The message as its catalog key and values (a text, shared/i18n/text), so a screen that
   * keeps the error shows it again in another language.
   */
  text: z
    .object({
      key: z.string(),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    })
    .optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type TApiError = z.infer<typeof ZApiError>;

// The languages live in their own module (no zod there, so the web app's first chunk can read
// them without the validation library); the server's many importers keep reading them here.
export {
  DEFAULT_LANGUAGE,
  isLanguage,
  pickLanguage,
  SUPPORTED_LANGUAGES,
  type TLanguage,
} from './i18n/language';
