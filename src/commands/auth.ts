// `cmdb auth status`: which device, which credential from where, and whether the device takes it.
import type { Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import { environmentCredential } from '../settings.js';
import { credentialAccount, type SecretStore } from '../config/secrets.js';
import { connection, newClient, tlsOptions } from '../device/connect.js';
import type { DeviceProfile } from '../config/profiles.js';
import { authenticate, secretStore } from '../device/credentials.js';
import { resolveTarget, type Target } from '../device/select.js';
import { EXIT } from '../errors.js';
import { deviceFacts, type DeviceFacts } from './common/facts.js';

/** Whether a profile's credential is in its store (a session profile may still hold a session). */
async function savedCredential(
  ctx: Context,
  profile: DeviceProfile,
): Promise<{ store: SecretStore; present: boolean }> {
  const store = await secretStore(ctx.device(), profile.secrets);
  return { store, present: (await store.get(credentialAccount(profile.name))) !== null };
}

/** Where the credential of this run lives, in words: never the credential itself. */
function secretLocation(target: Target, store: SecretStore | undefined): string {
  if (target.credential === 'CMDB_TOKEN') return 'environment (CMDB_TOKEN)';
  if (target.credential === 'CMDB_USERNAME') return 'environment (CMDB_USERNAME, CMDB_PASSWORD)';
  return `${store?.location ?? 'unknown'}, account '${credentialAccount(target.profile!.name)}'`;
}

function authKind(target: Target): 'token' | 'session' {
  if (target.credential === 'CMDB_TOKEN') return 'token';
  if (target.credential === 'CMDB_USERNAME') return 'session';
  return target.profile!.auth;
}

/** With --demo: the demo device, its built-in token, and whether it answers. */
async function demoStatus(ctx: Context): Promise<number> {
  const facts = deviceFacts(await (await ctx.device().client()).monitor('system/status'));
  await ctx.out.print({
    kind: 'object',
    object: {
      device: 'demo',
      host: 'built in (--demo)',
      auth: 'token',
      username: null,
      secret: 'built in (the demo device)',
      works: true,
      ...facts,
    },
  });
  return EXIT.OK;
}

/** `cmdb auth status`: which device, which credential from where, and whether the device accepts it (exit 4 if not). */
export async function run(ctx: Context): Promise<number> {
  if (ctx.settings.demo) return demoStatus(ctx);
  const target = resolveTarget(ctx.device());
  const tls = await tlsOptions(ctx.device(), target);
  const kind = authKind(target);
  const fromEnv = environmentCredential(ctx.settings);
  const username =
    kind === 'session' ? (fromEnv?.kind === 'session' ? fromEnv.username : target.profile?.username) : undefined;
  let facts: DeviceFacts | null = null;
  let problem: { message: string; hint: string | null } | null = null;
  let store: SecretStore | undefined;
  const saved = target.credential === 'profile' ? await savedCredential(ctx, target.profile!) : null;
  if (saved && !saved.present) {
    store = saved.store;
    problem = {
      message: `no ${kind === 'token' ? 'API token' : 'password'} is saved for device '${target.profile!.name}'`,
      hint: `log in again with 'cmdb login -d ${target.profile!.name}'`,
    };
  } else {
    const authenticated = await authenticate(ctx.device(), target);
    store = authenticated.store;
    const device = connection(await newClient(ctx.device(), target, tls, authenticated.auth), authenticated.end);
    try {
      facts = deviceFacts(await device.client.monitor('system/status'));
    } catch (err) {
      const shown = describeError(err);
      if (shown.exit !== EXIT.AUTH) throw err;
      problem = shown;
    } finally {
      await device.close();
    }
  }
  await ctx.out.print({
    kind: 'object',
    object: {
      device: target.profile?.name ?? null,
      host: target.host,
      auth: kind,
      username: username ?? null,
      secret:
        saved && !saved.present
          ? `none saved (looked in ${secretLocation(target, store)})`
          : secretLocation(target, store),
      works: problem === null,
      ...(facts ?? {}),
      ...(problem ? { problem: problem.message } : {}),
    },
  });
  if (!problem) return EXIT.OK;
  ctx.out.notice(`the credential does not work: ${problem.message}${problem.hint ? `\nhint: ${problem.hint}` : ''}`);
  return EXIT.AUTH;
}
