import { errors, validation } from '@portico/shared/locales/en.json';
import web from './en.json?without=certificate';

// From the shared catalog the screens always need `validation` (zod messages are its keys) and
// `errors`; its other groups, the server's sentences, are the SERVER_TEXTS namespace
// (en-server.ts), loaded by the screens that show them. The web's `certificate` group is the
// CERTIFICATE_TEXTS namespace (en-certificate.ts), also loaded by the screens that show it, so
// the landing page does not download it. The web catalog's top-level keys are others than the
// shared ones (catalogs.test.ts), so nothing is lost.
export const catalog = { validation, errors, ...web };
