// A device's credential: an API token or a session login from the environment, else the saved
// profile's from its secret store (the keychain, or credentials.yaml), with its saved session kept,
// replaced and ended; and the secret stores the devices of one run share.
import type { Authenticator, CmdbClient } from '../api/client.js';
import type { SessionAuth, SessionOptions, SessionState } from '../api/session.js';
import { environmentCredential } from '../settings.js';
import type { DeviceProfile, SecretsKind } from '../config/profiles.js';
import type { SecretStore } from '../config/secrets.js';
import { AuthError } from '../errors.js';
import type { Target } from './select.js';
import type { DeviceSetup, SharedStores } from './setup.js';

/** A credential ready to use, and what to do when the work is done. */
export interface Auth {
  auth: Authenticator;
  /** The store the credential came from (a saved profile's). */
  store?: SecretStore;
  /** Run when the work is done: an ephemeral session logs out. */
  end?: (client: CmdbClient) => Promise<unknown>;
}

/** The secret store a profile's secrets live in; the file store warns on stderr the first time it is read. */
export async function secretStore(device: DeviceSetup, kind: SecretsKind): Promise<SecretStore> {
  const shared = device.deps.stores?.[kind];
  if (shared) return shared;
  const [{ openSecretStore, credentialAccount, sessionAccount }, { readProfiles }] = await Promise.all([
    import('../config/secrets.js'),
    import('../config/profiles.js'),
  ]);
  // A device whose profile acknowledged plain-text storage (plain-text-ok) reads its secret without the warning.
  const acknowledged = (account: string) =>
    readProfiles(device.env).devices.some(
      (p) => p.plainTextOk && (account === credentialAccount(p.name) || account === sessionAccount(p.name)),
    );
  const waits = { keychainMs: device.settings.keychainTimeoutMs, lockMs: device.settings.lockTimeoutMs };
  return openSecretStore(kind, device.env, waits, (message) => device.warn(message), acknowledged);
}

/** The second factor: asked on a terminal, otherwise none (the login then fails naming --token-code). */
export function tokenCodePrompt(device: DeviceSetup): () => Promise<string | null> {
  return async () => (await device.ask('Second-factor code: '))?.trim() ?? null;
}

/** Keeps a new session for the next run; failing to is not fatal (the next run logs in again). */
export async function saveSession(
  device: DeviceSetup,
  store: SecretStore,
  name: string,
  state: SessionState | null,
): Promise<void> {
  const [{ sessionAccount }, { serializeSession }] = await Promise.all([
    import('../config/secrets.js'),
    import('../api/session.js'),
  ]);
  try {
    if (state) await store.set(sessionAccount(name), serializeSession(state));
    else await store.delete(sessionAccount(name));
  } catch (err) {
    device.warn(
      `the session of device '${name}' could not be saved, so the next run logs in again: ${(err as Error).message}`,
    );
  }
}

/**
 * Before a run on several devices: every credential (and saved session) the devices need is read from
 * the keychain in one helper process, and the file store is opened once; the devices share them. A
 * batch that fails leaves each device to read its own (and report its own error).
 */
export async function prefetchSecretStores(device: DeviceSetup, profiles: DeviceProfile[]): Promise<SharedStores> {
  if (environmentCredential(device.settings)) return {};
  const { credentialAccount, sessionAccount, KeychainStore, PrefetchedStore } = await import('../config/secrets.js');
  const stores: SharedStores = {};
  if (profiles.some((p) => p.secrets === 'file')) stores.file = await secretStore(device, 'file');
  const accounts = profiles
    .filter((p) => p.secrets === 'keychain')
    .flatMap((p) =>
      p.auth === 'token' ? [credentialAccount(p.name)] : [sessionAccount(p.name), credentialAccount(p.name)],
    );
  if (accounts.length) {
    const keychain = (await secretStore(device, 'keychain')) as InstanceType<typeof KeychainStore>;
    const values = await keychain.getMany(accounts).catch(() => null);
    if (values) stores.keychain = new PrefetchedStore(keychain, values);
  }
  return stores;
}

/**
 * Saves a new session in place of the one saved before, which is logged out on the device first
 * (where it still lives): sessions are scarce, and a replaced one must not linger until it expires.
 */
async function replaceSession(
  device: DeviceSetup,
  store: SecretStore,
  name: string,
  fresh: SessionState,
  client: CmdbClient,
): Promise<void> {
  const [{ parseSession, SessionAuth }, { readNow, sessionAccount }] = await Promise.all([
    import('../api/session.js'),
    import('../config/secrets.js'),
  ]);
  const old = parseSession(await readNow(store, sessionAccount(name)).catch(() => null));
  if (old && JSON.stringify(old.cookies) !== JSON.stringify(fresh.cookies)) {
    await new SessionAuth({ username: '', password: async () => null, state: old }).logout(client).catch(() => false);
  }
  await saveSession(device, store, name, fresh);
}

/** An API token, sent as a bearer header. */
export async function tokenAuth(token: string): Promise<Authenticator> {
  const { TokenAuth } = await import('../api/auth.js');
  return new TokenAuth(token);
}

/** A session login; `acceptDisclaimer` says whether the device's login banner may be accepted. */
export async function sessionAuth(
  device: DeviceSetup,
  options: {
    username: string;
    password: () => Promise<string | null>;
    state?: SessionState | null;
    tokenCode?: string;
    acceptDisclaimer: () => Promise<boolean>;
  } & Pick<SessionOptions, 'onLogin' | 'exclusive' | 'saved'>,
): Promise<SessionAuth> {
  const { SessionAuth } = await import('../api/session.js');
  const { tokenCode, ...rest } = options;
  return new SessionAuth({
    ...rest,
    tokenCode: tokenCode !== undefined ? async () => tokenCode : tokenCodePrompt(device),
  });
}

/** A profile's credential from its store; a session profile reuses the saved session and saves new ones. */
async function profileAuth(device: DeviceSetup, profile: DeviceProfile): Promise<Auth> {
  const [{ credentialAccount, sessionAccount }, store] = await Promise.all([
    import('../config/secrets.js'),
    secretStore(device, profile.secrets),
  ]);
  const name = profile.name;
  if (profile.auth === 'token') {
    const token = await store.get(credentialAccount(name));
    if (!token)
      throw new AuthError(
        `no saved API token for device '${name}'`,
        `log in again with 'cmdb login -d ${name} --token-stdin'`,
      );
    return { auth: await tokenAuth(token), store };
  }
  const [{ parseSession }, { withLock }, { readNow, sessionLockFile }, saved] = await Promise.all([
    import('../api/session.js'),
    import('../config/lock.js'),
    import('../config/secrets.js'),
    store.get(sessionAccount(name)),
  ]);
  const state = parseSession(saved);
  // A login takes as long as a few requests; a holder older than that has hung or died.
  const patience = 3 * device.merged.timeoutMs + 10_000;
  const session = await sessionAuth(device, {
    username: profile.username!,
    state,
    exclusive: (work) =>
      withLock(sessionLockFile(device.env, name), work, {
        staleMs: patience,
        waitMs: device.settings.lockTimeoutMs ?? patience + 5_000,
      }),
    saved: async () => parseSession(await readNow(store, sessionAccount(name))),
    password: async () => {
      const password = await store.get(credentialAccount(name));
      if (password === null)
        throw new AuthError(
          `no saved password for device '${name}'`,
          `log in again with 'cmdb login -d ${name} --username ${profile.username}'`,
        );
      return password;
    },
    acceptDisclaimer: async () => !!profile.acceptDisclaimer || device.settings.acceptDisclaimer,
    onLogin: (fresh, client) => replaceSession(device, store, name, fresh, client),
  });
  return { auth: session, store };
}

/**
 * The credential of a target: CMDB_TOKEN; CMDB_USERNAME/CMDB_PASSWORD (log in, do the work, log out;
 * a banner only with CMDB_ACCEPT_DISCLAIMER=1); else the profile's store.
 */
export async function authenticate(device: DeviceSetup, target: Target): Promise<Auth> {
  const fromEnv = environmentCredential(device.settings);
  if (target.credential === 'CMDB_TOKEN' && fromEnv?.kind === 'token') return { auth: await tokenAuth(fromEnv.token) };
  if (target.credential === 'CMDB_USERNAME' && fromEnv?.kind === 'session') {
    const session = await sessionAuth(device, {
      username: fromEnv.username,
      password: async () => fromEnv.password ?? null,
      acceptDisclaimer: async () => device.settings.acceptDisclaimer,
    });
    return { auth: session, end: (client) => session.logout(client) };
  }
  return profileAuth(device, target.profile!);
}

/** Deletes a profile's credential and session from its store; a failure is a warning (the profile goes anyway). */
export async function forgetSecrets(
  device: DeviceSetup,
  profile: DeviceProfile,
  which: { credential: boolean; session: boolean },
): Promise<void> {
  try {
    const [{ credentialAccount, sessionAccount }, store] = await Promise.all([
      import('../config/secrets.js'),
      secretStore(device, profile.secrets),
    ]);
    if (which.credential) await store.delete(credentialAccount(profile.name));
    if (which.session) await store.delete(sessionAccount(profile.name));
  } catch (err) {
    device.warn(
      `the old secret of device '${profile.name}' in ` +
        `${profile.secrets === 'file' ? 'credentials.yaml' : 'the keychain'} could not be deleted: ` +
        `${(err as Error).message}`,
    );
  }
}
