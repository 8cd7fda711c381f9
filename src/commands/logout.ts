import type { Context } from '../cli/context.js';
import { credentialAccount } from '../config/secrets.js';
import { endSession } from '../device/connect.js';
import { secretStore } from '../device/credentials.js';
import { requireProfile } from '../device/select.js';
import { printOutcome } from './outcome.js';

export interface LogoutOptions {
  forget?: boolean;
}

/** `cmdb logout [-d name] [--forget]`: ends the session and deletes it; --forget also deletes the credential. */
export async function run(ctx: Context, _args: object, opts: LogoutOptions): Promise<number> {
  const profile = requireProfile(ctx, 'log out of');
  const store = await secretStore(ctx, profile.secrets);
  const ended = profile.auth === 'session' ? await endSession(ctx, profile, store) : false;
  const forgotten = opts.forget ? await store.delete(credentialAccount(profile.name)) : false;
  const done = [
    profile.auth === 'session' ? (ended ? 'ended the session' : 'no session was open') : 'an API token has no session to end',
    opts.forget ? (forgotten ? `deleted the saved ${profile.auth === 'token' ? 'API token' : 'password'}` : 'no credential was saved') : null,
  ].filter(Boolean);
  await printOutcome(ctx, `Logged out of device '${profile.name}' (${profile.host}): ${done.join('; ')}`, {
    device: profile.name,
    host: profile.host,
    sessionEnded: ended,
    credentialDeleted: forgotten,
  });
  return 0;
}
