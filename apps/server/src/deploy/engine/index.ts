// The deployment engine: what the deploy job and the delete service call (contract in types.ts).
export { runCertificateAction } from './certificate-actions';
export {
  planDeployment,
  type TDeployPlan,
  type TPlanInput,
  type TPlanOutcome,
} from './plan-deployment';
export { removeSite } from './remove-site';
export { runDeployment } from './run-deployment';
export type * from './types';
