export * from './session';
export * from './users';
