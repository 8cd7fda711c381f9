// The simplest credentials of the api library: an API token sent as a bearer header, and none at all.
import type { Authenticator } from './client.js';

/** A token can travel in a header only as printable ASCII: no whitespace, control or non-ASCII character. */
export function isUsableToken(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}

/** REST API administrator token, sent only as `Authorization: Bearer` (a token in the query string leaks into logs). */
export class TokenAuth implements Authenticator {
  readonly kind = 'token' as const;
  constructor(private readonly token: string) {}
  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${this.token}` };
  }
}

/** No credential: requests go out unauthenticated (and the device answers 401). */
export const noAuth: Authenticator = {
  kind: 'none',
  async headers() {
    return {};
  },
};
