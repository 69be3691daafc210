export * from './account-secrets';
export * from './audit-log';
export * from './deployments';
export * from './destination-servers';
export * from './proxy-configurations';
export * from './session';
export * from './ssh-servers';
export * from './users';
