import type { Context } from '../cli/context.js';
import { credentialAccount, type SecretStore } from '../config/secrets.js';
import { connection, newClient, tlsOptions } from '../device/connect.js';
import { authenticate } from '../device/credentials.js';
import { resolveTarget, type Target } from '../device/select.js';
import { EXIT } from '../errors.js';
import { deviceFacts, type DeviceFacts } from './outcome.js';

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

/** `cmdb auth status`: which device, which credential from where, and whether the device accepts it (exit 4 if not). */
export async function run(ctx: Context): Promise<number> {
  const target = resolveTarget(ctx);
  const tls = await tlsOptions(ctx, target);
  const { auth, end, store } = await authenticate(ctx, target);
  const kind = authKind(target);
  const fromEnv = ctx.settings.environmentCredential;
  const username = kind === 'session' ? (fromEnv?.kind === 'session' ? fromEnv.username : target.profile?.username) : undefined;
  const device = connection(await newClient(ctx, target, tls, auth), end);
  let facts: DeviceFacts | null = null;
  let problem: { message: string; hint: string | null } | null = null;
  try {
    facts = deviceFacts(await device.client.monitor('system/status'));
  } catch (err) {
    const shown = ctx.describe(err);
    if (shown.exit !== EXIT.AUTH) throw err;
    problem = shown;
  } finally {
    await device.close();
  }
  await ctx.print({
    kind: 'object',
    object: {
      device: target.profile?.name ?? null,
      host: target.host,
      auth: kind,
      username: username ?? null,
      secret: secretLocation(target, store),
      works: problem === null,
      ...(facts ?? {}),
      ...(problem ? { problem: problem.message } : {}),
    },
  });
  if (!problem) return EXIT.OK;
  ctx.notice(`the credential does not work: ${problem.message}${problem.hint ? `\nhint: ${problem.hint}` : ''}`);
  return EXIT.AUTH;
}
