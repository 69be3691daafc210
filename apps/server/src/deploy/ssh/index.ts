// The only module that talks SSH (and the only one importing ssh2).
export { connectSsh, type TConnectOptions, type TSshSession } from './connect';
export {
  CommandTimeoutError,
  HostKeyMismatchError,
  SshError,
  SudoRefusedError,
  type TSshErrorCode,
} from './errors';
export type { TFileState } from './file-state';
export { fingerprintOf } from './fingerprint';
export {
  generateKeyPair,
  PRIVATE_KEY_MAX_BYTES,
  PrivateKeyError,
  readPrivateKey,
  type TGeneratedKey,
  type TKeyProblem,
  type TReadKey,
} from './keys';
export type { TRunOptions, TRunResult } from './run';
