import type { Context } from '../cli/context.js';
import { authenticate, newClient, resolveTarget, tlsOptions, type Target } from '../cli/connect.js';
import { credentialAccount, type SecretStore } from '../config/secrets.js';
import { CmdbError, EXIT } from '../errors.js';
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
  const username = kind === 'session' ? (target.credential === 'CMDB_USERNAME' ? ctx.env.CMDB_USERNAME : target.profile?.username) : undefined;
  const client = await newClient(ctx, target, tls, auth);
  let facts: DeviceFacts | null = null;
  let problem: CmdbError | null = null;
  try {
    facts = deviceFacts(await client.monitor('system/status'));
  } catch (err) {
    if (!(err instanceof CmdbError) || err.exitCode !== EXIT.AUTH) throw err;
    problem = err;
  } finally {
    if (end) await end(client).catch(() => undefined);
    await client.close();
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
