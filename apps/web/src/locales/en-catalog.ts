import { errors, validation } from '@portico/shared/locales/en.json';
import web from './en.json?without=certificate,settings,plan,options,lists,servers,admin';

// From the shared catalog the screens always need `validation` (zod messages are its keys) and
// `errors`; its other groups, the server's sentences, are the SERVER_TEXTS namespace
// (en-server.ts), loaded by the screens that show them. The web's `certificate` group is the
// CERTIFICATE_TEXTS namespace (en-certificate.ts) and its `settings` group the SETTINGS_TEXTS
// namespace (en-settings.ts) and its `servers` group the SERVERS_TEXTS namespace (en-servers.ts), each loaded by the screens that show it, so the landing page
// does not download them. The web catalog's top-level keys are others than the
// shared ones (catalogs.test.ts), so nothing is lost.
export const catalog = { validation, errors, ...web };
