// The answers the API client checks, in a module of its own: the client imports it when an
// answer needs checking, so the validation library is not part of the first page's JavaScript.
export { ZApiError } from '@portico/shared/api-error';
