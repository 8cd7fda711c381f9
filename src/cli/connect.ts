import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Authenticator, CmdbClient, TlsOptions } from '../api/client.js';
import type { SessionState } from '../api/session.js';
import { AuthError, UsageError } from '../errors.js';
import { stateDir } from '../config/paths.js';
import type { DeviceProfile, SecretsKind } from '../config/profiles.js';
import type { SecretStore } from '../config/secrets.js';
import { truthy, type Context } from './context.js';
import { hostOption, selectedProfile } from './profile.js';

export interface Connection {
  client: CmdbClient;
  close: () => Promise<void>;
}

/** The --demo device's state file; deleting it resets the demo. */
export function demoStateFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'demo-state.json');
}

async function connectDemo(ctx: Context): Promise<Connection> {
  const [{ startEmulator }, { TokenAuth }] = await Promise.all([import('../emulator/index.js'), import('../api/auth.js')]);
  // A fresh port each run, and the state file written only when a command changed something.
  const emulator = await startEmulator({ stateFile: demoStateFile(ctx.env), seed: 'demo', keepAddress: false, saveOnlyChanges: true }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ESTATEFILE') throw error;
    throw new UsageError(`the demo device's state cannot be used: ${(error as Error).message}`, "start it afresh with 'cmdb demo reset'");
  });
  const client = await newClient(ctx, { host: emulator.url, timeoutMs: ctx.timeoutMs() }, {}, new TokenAuth(emulator.token));
  return {
    client,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

async function readCaFile(path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the CA file '${path}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a PEM file with --ca-file or CMDB_CA_FILE');
  }
}

/** Where the credential of this run comes from: the environment wins over the profile. */
export type CredentialSource = 'CMDB_TOKEN' | 'CMDB_USERNAME' | 'profile';

/** Which device, with which settings: flag, then environment, then profile, then default. No secret here. */
export interface Target {
  profile: DeviceProfile | null;
  host: string;
  prefix: string | undefined;
  caFile: string | undefined;
  fingerprint: string | undefined;
  timeoutMs: number;
  credential: CredentialSource;
}

/** A device's connection settings: flag, then environment, then profile, then default. */
export function settingsFor(ctx: Context, profile: DeviceProfile | null, host: string): Omit<Target, 'credential'> {
  return {
    profile,
    host,
    prefix: ctx.env.CMDB_API_PREFIX || profile?.prefix,
    caFile: ctx.options.caFile ?? (ctx.env.CMDB_CA_FILE || undefined) ?? profile?.caFile,
    fingerprint: profile?.fingerprint,
    timeoutMs: ctx.timeoutMs(profile?.timeout),
  };
}

export function resolveTarget(ctx: Context): Target {
  const profile = selectedProfile(ctx);
  const host = hostOption(ctx) ?? profile?.host;
  if (!host) {
    throw new AuthError('no device to talk to', "log in with 'cmdb login --host <url> --token-stdin', set CMDB_HOST and CMDB_TOKEN, or try the built-in device with --demo");
  }
  const credential: CredentialSource | null = ctx.env.CMDB_TOKEN ? 'CMDB_TOKEN' : ctx.env.CMDB_USERNAME ? 'CMDB_USERNAME' : profile ? 'profile' : null;
  if (!credential) {
    throw new AuthError(`no credential for ${host}`, `set CMDB_TOKEN to an API token, or log in with 'cmdb login --host ${host}'`);
  }
  if (credential === 'CMDB_USERNAME' && !ctx.env.CMDB_PASSWORD) {
    throw new AuthError('CMDB_USERNAME is set but CMDB_PASSWORD is not', 'set both for a session login from the environment, or unset CMDB_USERNAME');
  }
  return { ...settingsFor(ctx, profile, host), credential };
}

/** The secret store a profile's secrets live in; the file store warns on stderr the first time it is read. */
export async function secretStore(ctx: Context, kind: SecretsKind): Promise<SecretStore> {
  const { openSecretStore } = await import('../config/secrets.js');
  return openSecretStore(kind, ctx.env, (message) => ctx.warn(message));
}

/** TLS settings of a connection; --insecure warns every time it is used. */
export async function tlsOptions(ctx: Context, settings: { caFile?: string; fingerprint?: string }): Promise<TlsOptions> {
  const ca = await readCaFile(settings.caFile);
  if (ctx.insecure) ctx.warn("TLS verification is off (--insecure): the device's identity is not checked");
  return { ca, insecure: ctx.insecure, fingerprint: settings.fingerprint ?? null };
}

/** Every client the CLI makes (commands, login, completion, --demo) is made here. */
export async function newClient(ctx: Context, target: { host: string; prefix?: string; timeoutMs: number }, tls: TlsOptions, auth: Authenticator): Promise<CmdbClient> {
  baselineWasmOnly();
  const { CmdbClient } = await import('../api/client.js');
  return new CmdbClient({
    baseUrl: target.host,
    prefix: target.prefix,
    auth,
    timeoutMs: target.timeoutMs,
    tls,
    onExchange: ctx.verbose ? (ex) => ctx.logExchange(ex) : undefined,
  });
}

/** The second factor: asked on a terminal, otherwise none (the login then fails naming --token-code). */
export function tokenCodePrompt(ctx: Context): () => Promise<string | null> {
  return async () => {
    const { ask, isInteractive } = await import('./prompt.js');
    return isInteractive(ctx.io) ? (await ask(ctx.io, 'Second-factor code: ')).trim() : null;
  };
}

/** Keeps a new session for the next run; failing to is not fatal (the next run logs in again). */
export async function saveSession(ctx: Context, store: SecretStore, device: string, state: SessionState | null): Promise<void> {
  const [{ sessionAccount }, { serializeSession }] = await Promise.all([import('../config/secrets.js'), import('../api/session.js')]);
  try {
    if (state) await store.set(sessionAccount(device), serializeSession(state));
    else await store.delete(sessionAccount(device));
  } catch (err) {
    ctx.warn(`the session of device '${device}' could not be saved, so the next run logs in again: ${(err as Error).message}`);
  }
}

export interface Auth {
  auth: Authenticator;
  /** The store the credential came from (a saved profile's). */
  store?: SecretStore;
  /** Run when the work is done: an ephemeral session logs out. */
  end?: (client: CmdbClient) => Promise<unknown>;
}

/** CMDB_USERNAME/CMDB_PASSWORD: log in, do the work, log out; a banner only with CMDB_ACCEPT_DISCLAIMER=1. */
async function environmentSession(ctx: Context): Promise<Auth> {
  const { SessionAuth } = await import('../api/session.js');
  const session = new SessionAuth({
    username: ctx.env.CMDB_USERNAME!,
    password: async () => ctx.env.CMDB_PASSWORD ?? null,
    tokenCode: tokenCodePrompt(ctx),
    acceptDisclaimer: async () => truthy(ctx.env.CMDB_ACCEPT_DISCLAIMER),
  });
  return { auth: session, end: (client) => session.logout(client) };
}

/** A profile's credential from its store; a session profile reuses the saved session and saves new ones. */
async function profileAuth(ctx: Context, profile: DeviceProfile): Promise<Auth> {
  const [{ credentialAccount, sessionAccount }, store] = await Promise.all([import('../config/secrets.js'), secretStore(ctx, profile.secrets)]);
  const name = profile.name;
  if (profile.auth === 'token') {
    const token = await store.get(credentialAccount(name));
    if (!token) throw new AuthError(`no saved API token for device '${name}'`, `log in again with 'cmdb login -d ${name} --token-stdin'`);
    const { TokenAuth } = await import('../api/auth.js');
    return { auth: new TokenAuth(token), store };
  }
  const [{ SessionAuth, parseSession }, saved] = await Promise.all([import('../api/session.js'), store.get(sessionAccount(name))]);
  const session = new SessionAuth({
    username: profile.username!,
    state: parseSession(saved),
    password: async () => {
      const password = await store.get(credentialAccount(name));
      if (password === null) throw new AuthError(`no saved password for device '${name}'`, `log in again with 'cmdb login -d ${name} --username ${profile.username}'`);
      return password;
    },
    tokenCode: tokenCodePrompt(ctx),
    acceptDisclaimer: async () => !!profile.acceptDisclaimer || truthy(ctx.env.CMDB_ACCEPT_DISCLAIMER),
    onLogin: (state) => saveSession(ctx, store, name, state),
  });
  return { auth: session, store };
}

export async function authenticate(ctx: Context, target: Target): Promise<Auth> {
  if (target.credential === 'CMDB_TOKEN') {
    const { TokenAuth } = await import('../api/auth.js');
    return { auth: new TokenAuth(ctx.env.CMDB_TOKEN!) };
  }
  if (target.credential === 'CMDB_USERNAME') return environmentSession(ctx);
  return profileAuth(ctx, target.profile!);
}

/**
 * undici parses HTTP with a WebAssembly build of llhttp. V8 re-compiles it with its optimising tier in
 * the background, and Node waits for that work before the process may exit: ~60 ms on every run that
 * touches the network (see `npm run bench`). One CLI run is far too short to profit from the optimised
 * code, so the baseline tier is kept. Set here, in the CLI, before the first connection compiles the
 * module: a library user's process keeps V8's defaults.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * Resolves which device to talk to and how to authenticate: --demo; else the device from
 * --host/CMDB_HOST or the profile (-d/CMDB_DEVICE, or the default), with the credential from
 * CMDB_TOKEN, CMDB_USERNAME/CMDB_PASSWORD, or the profile's store.
 */
export async function connect(ctx: Context): Promise<Connection> {
  if (ctx.demo) return connectDemo(ctx);
  const target = resolveTarget(ctx);
  const tls = await tlsOptions(ctx, target);
  const { auth, end } = await authenticate(ctx, target);
  const client = await newClient(ctx, target, tls, auth);
  return {
    client,
    close: async () => {
      if (end) await end(client).catch(() => undefined);
      await client.close();
    },
  };
}
