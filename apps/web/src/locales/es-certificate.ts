import certificate from './es.json?group=certificate';

// The CERTIFICATE_TEXTS namespace: the web's `certificate` group, under its own key so the
// screens keep their `certificate.…` keys. A module of its own (build/json-group.ts), so it
// stays out of the landing page's chunk.
export const catalog = { certificate };
