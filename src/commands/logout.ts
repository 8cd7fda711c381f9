import { newClient, settingsFor, secretStore, tlsOptions } from '../cli/connect.js';
import type { Context } from '../cli/context.js';
import { selectedProfile } from '../cli/profile.js';
import type { DeviceProfile } from '../config/profiles.js';
import { credentialAccount, sessionAccount, type SecretStore } from '../config/secrets.js';
import { UsageError } from '../errors.js';
import { printOutcome } from './outcome.js';

export interface LogoutOptions {
  forget?: boolean;
}

/** The saved device profile, or a usage error when there is none to act on. */
export function requireProfile(ctx: Context, command: string): DeviceProfile {
  const profile = selectedProfile(ctx);
  if (!profile) throw new UsageError(`no saved device to ${command}`, "name one with -d <name> (see 'cmdb device list'), or log in first with 'cmdb login'");
  return profile;
}

/**
 * Ends a profile's saved session on the device (`POST /logout`) and deletes it from the store. The
 * saved session goes even when the device cannot be reached: it is of no use to anyone but the device.
 */
export async function endSession(ctx: Context, profile: DeviceProfile, store: SecretStore): Promise<boolean> {
  const { SessionAuth, parseSession } = await import('../api/session.js');
  const saved = parseSession(await store.get(sessionAccount(profile.name)));
  let ended = false;
  if (saved) {
    const target = settingsFor(ctx, profile, profile.host);
    const session = new SessionAuth({ username: profile.username ?? '', password: async () => null, state: saved });
    const client = await newClient(ctx, target, await tlsOptions(ctx, target), session);
    try {
      ended = await session.logout(client);
    } catch (err) {
      ctx.warn(`the session could not be ended on ${profile.host} (${(err as Error).message}); the saved session is deleted anyway`);
    } finally {
      await client.close();
    }
  }
  await store.delete(sessionAccount(profile.name));
  return ended;
}

/** `cmdb logout [-d name] [--forget]`: ends the session and deletes it; --forget also deletes the credential. */
export async function run(ctx: Context, opts: LogoutOptions): Promise<number> {
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
