export { CmdbClient } from './api/client.js';
export type { ApiRequest, ApiResult, Authenticator, ClientOptions, Envelope, Exchange, TlsOptions } from './api/client.js';
export { TokenAuth, noAuth } from './api/auth.js';
export { buildPath, buildQuery, encodeMkey, type QueryParams } from './api/url.js';
export { allTables, findTable, type TableDef, type FieldSchema } from './catalogue/index.js';
export * from './errors.js';
