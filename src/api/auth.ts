import type { Authenticator } from './client.js';

/** REST API administrator token, sent as `Authorization: Bearer` (never as the access_token query parameter). */
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
