import { errors, validation } from '@portico/shared/locales/es.json';
import web from './es.json';

// From the shared catalog the screens need `validation` (zod messages are its keys) and
// `errors`; its other groups are sentences the server writes (deployment log, checks) and
// arrive already translated. The web catalog's top-level keys are others, so nothing is lost.
export const catalog = { validation, errors, ...web };
