import { join } from 'node:path';
import type { Authenticator, CmdbClient } from '../api/client.js';
import { AuthError } from '../errors.js';
import { stateDir } from '../config/paths.js';
import type { Context } from './context.js';

export interface Connection {
  client: CmdbClient;
  close: () => Promise<void>;
}

/** The --demo device's state file; deleting it resets the demo. */
export function demoStateFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'demo-state.json');
}

async function connectDemo(ctx: Context): Promise<Connection> {
  const [{ startEmulator }, { CmdbClient }, { TokenAuth }] = await Promise.all([
    import('../emulator/index.js'),
    import('../api/client.js'),
    import('../api/auth.js'),
  ]);
  const emulator = await startEmulator({ stateFile: demoStateFile(ctx.env), seed: 'demo' });
  const client = new CmdbClient({
    baseUrl: emulator.url,
    auth: new TokenAuth(emulator.token),
    timeoutMs: ctx.timeoutMs(),
    onExchange: ctx.verbose ? (ex) => ctx.logExchange(ex) : undefined,
  });
  return {
    client,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

async function readCaFile(ctx: Context, path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const { UsageError } = await import('../errors.js');
    throw new UsageError(`cannot read the CA file '${path}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a PEM file with --ca-file or CMDB_CA_FILE');
  }
}

/**
 * Resolves which device to talk to and how to authenticate, by precedence:
 * --demo, then --host/CMDB_HOST with CMDB_TOKEN, then the device profile.
 */
export async function connect(ctx: Context): Promise<Connection> {
  if (ctx.demo) return connectDemo(ctx);
  const host = ctx.options.host ?? (ctx.env.CMDB_HOST || undefined);
  const token = ctx.env.CMDB_TOKEN || undefined;
  if (!host) {
    throw new AuthError('no device to talk to', "log in with 'cmdb login --host <url> --token-stdin', set CMDB_HOST and CMDB_TOKEN, or try the built-in device with --demo");
  }
  if (!token) {
    throw new AuthError(`no credential for ${host}`, "set CMDB_TOKEN to an API token, or log in with 'cmdb login'");
  }
  const [{ CmdbClient }, { TokenAuth }] = await Promise.all([import('../api/client.js'), import('../api/auth.js')]);
  const auth: Authenticator = new TokenAuth(token);
  const caFile = ctx.options.caFile ?? (ctx.env.CMDB_CA_FILE || undefined);
  if (ctx.insecure) ctx.warn('TLS verification is off (--insecure): the device\'s identity is not checked');
  const client = new CmdbClient({
    baseUrl: host,
    auth,
    timeoutMs: ctx.timeoutMs(),
    tls: { ca: await readCaFile(ctx, caFile), insecure: ctx.insecure },
    onExchange: ctx.verbose ? (ex) => ctx.logExchange(ex) : undefined,
  });
  return { client, close: () => client.close() };
}
