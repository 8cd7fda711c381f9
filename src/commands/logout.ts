// `cmdb logout`: ends the saved session on the device; --forget also deletes the credential.
import type { Context } from '../run/context.js';
import { credentialAccount } from '../config/secrets.js';
import { endSession } from '../device/connect.js';
import { secretStore } from '../device/credentials.js';
import { requireProfile } from '../device/select.js';
import { notForDemo, printOutcome } from './common/facts.js';

export interface LogoutOptions {
  forget?: boolean;
}

/** `cmdb logout [-d name] [--forget]`: ends the session and deletes it; --forget also deletes the credential. */
export async function run(ctx: Context, _args: object, opts: LogoutOptions): Promise<number> {
  if (ctx.settings.demo) throw notForDemo('logout', 'it has no session and no saved credential');
  const profile = requireProfile(ctx.device(), 'log out of');
  const store = await secretStore(ctx.device(), profile.secrets);
  const ended = profile.auth === 'session' ? await endSession(ctx.device(), profile, store) : false;
  const forgotten = opts.forget ? await store.delete(credentialAccount(profile.name)) : false;
  const secret = profile.auth === 'token' ? 'API token' : 'password';
  const forgot = forgotten ? `deleted the saved ${secret}` : `no ${secret} was saved`;
  const message =
    profile.auth === 'token'
      ? opts.forget
        ? `Device '${profile.name}' (${profile.host}) uses an API token, which has no session to end; ${forgot}`
        : `Nothing to end for device '${profile.name}' (${profile.host}): an API token has no session; ` +
          `the token stays saved ('cmdb logout --forget' deletes it)`
      : `Logged out of device '${profile.name}' (${profile.host}): ` +
        `${ended ? 'ended the session' : 'no session was open'}${opts.forget ? `; ${forgot}` : ''}`;
  await printOutcome(ctx, message, {
    device: profile.name,
    host: profile.host,
    sessionEnded: ended,
    credentialDeleted: forgotten,
  });
  return 0;
}
