// The deployment engine: what the deploy job and the delete service call (contract in types.ts).
// Code outside deploy/engine/ reaches it only through this file (scripts/check-imports.ts).
export { runCertificateAction } from './certificate-actions';
export {
  convertSite,
  planConversion,
  type TConvertInput,
  type TConvertOutcome,
  type TConvertPlanOutcome,
} from './convert-site';
export { deadlineFailure } from './failure';
export { msg } from './messages';
export { NginxDumpCache } from './nginx-dump-cache';
export {
  planDeployment,
  type TDeployPlan,
  type TPlanInput,
  type TPlanOutcome,
} from './plan-deployment';
export { removeSite } from './remove-site';
export { runDeployment } from './run-deployment';
export type * from './types';
export { LOCK_LOST } from './types';
