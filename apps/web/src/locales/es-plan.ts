import plan from './es.json?group=plan';

// The PLAN_TEXTS namespace: the web's `plan` group (a deployment's plan: its files, diffs and
// commands), under its own key so the screens keep their `plan.…` keys. A module of its own
// (build/json-group.ts), so it stays out of the landing page's chunk.
export const catalog = { plan };
