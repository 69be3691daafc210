import { errors, validation } from '@portico/shared/locales/es.json';
import web from './es.json';

// From the shared catalog the screens always need `validation` (zod messages are its keys) and
// `errors`; its other groups, the server's sentences, are the SERVER_TEXTS namespace
// (es-server.ts), loaded by the screens that show them. The web catalog's top-level keys are
// others, so nothing is lost.
export const catalog = { validation, errors, ...web };
