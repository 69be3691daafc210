import { errors, validation } from '@portico/shared/locales/en.json';
import {
  admin,
  common,
  header,
  home,
  landing,
  logs,
  notFound,
  password,
  proxies,
  settings,
  wizard,
} from './en.json';

// From the shared catalog the screens always need `validation` (zod messages are its keys) and
// `errors`; its other groups, the server's sentences, are the SERVER_TEXTS namespace
// (en-server.ts), loaded by the screens that show them. The web's `certificate` group goes
// there too (found through fallbackNS): only signed-in screens use it, and the landing page's
// chunk must stay within its budget (e2e/first-paint.spec.ts).
export const catalog = {
  validation,
  errors,
  common,
  header,
  password,
  landing,
  home,
  proxies,
  wizard,
  notFound,
  admin,
  logs,
  settings,
};
