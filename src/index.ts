// The library's front door (`import { CmdbClient } from 'cmdb'`): the api client, its credentials,
// its errors, its paths, and the shipped catalogue; nothing of the CLI.
export { CmdbClient } from './api/client.js';
export type {
  ApiRequest,
  ApiResult,
  Authenticator,
  ClientOptions,
  Envelope,
  Exchange,
  TlsOptions,
} from './api/client.js';
export type { Transport } from './api/undici.js';
export { TokenAuth, noAuth } from './api/auth.js';
export { SessionAuth, type SessionOptions, type SessionState } from './api/session.js';
export {
  ApiError,
  CmdbApiError,
  ConnectionError,
  LoginError,
  RequestError,
  TlsVerificationError,
} from './api/errors.js';
export type { ConnectionFailure, LoginFailure, PeerCertificate, RequestSubject } from './api/errors.js';
export { buildPath, buildQuery, encodeMkey, type QueryParams } from './api/url.js';
export { allTables, findTable, type TableDef, type FieldSchema } from './catalogue/index.js';
