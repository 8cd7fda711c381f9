import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keychainTimeoutMs, lockTimeoutMs } from '../cli/options.js';
import { AuthError } from '../errors.js';
import { fileError, readYamlFile, writePrivateFile, yaml } from './files.js';
import { lockFileFor, withLock } from './lock.js';
import type { KeychainAnswer, KeychainRequest } from './keychain-helper.js';
import { configDir } from './paths.js';
import type { SecretsKind } from './profiles.js';

export { keychainTimeoutMs };

/** The keychain service every cmdb secret is filed under. */
export const KEYCHAIN_SERVICE = 'cmdb';

/** The account of a device's credential (API token or password) in the store. */
export function credentialAccount(device: string): string {
  return device;
}

/** The account of a device's login session (cookies and CSRF token); `/` never occurs in device names. */
export function sessionAccount(device: string): string {
  return `${device}/session`;
}

/**
 * The lock file that lets one cmdb process at a time log in to a device (the others wait, then use
 * the session it saved): beside the profiles, named after the device.
 */
export function sessionLockFile(env: NodeJS.ProcessEnv, device: string): string {
  return join(configDir(env), `${encodeURIComponent(device)}.session.lock`);
}

/** Where secrets are kept; the CLI holds one per device and never writes a secret anywhere else. */
export interface SecretStore {
  readonly kind: SecretsKind;
  /** Where the secrets live, in words (`auth status`, messages). */
  readonly location: string;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when there was something to delete. */
  delete(account: string): Promise<boolean>;
}

export function credentialsPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'credentials.yaml');
}

/** The keychain could not be used: exit 4, with the two ways to do without it. */
export class KeychainError extends AuthError {
  constructor(keychain: string, reason: string, env: NodeJS.ProcessEnv) {
    super(
      `cannot use ${keychain}: ${reason}`,
      `without a keychain, give the credential in the environment (CMDB_TOKEN, or CMDB_USERNAME and CMDB_PASSWORD), or keep it in a plain-text file (mode 0600) with 'cmdb login --insecure-storage' (${credentialsPath(env)})`,
    );
  }
}

function keychainName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'the Secret Service keychain';
}

/** The binding's D-Bus errors, in terms of what is missing on a Linux machine. */
function explain(reason: string, env: NodeJS.ProcessEnv): string {
  if (process.platform !== 'linux') return reason;
  if (!env.DBUS_SESSION_BUS_ADDRESS && /autolaunch|DBUS_SESSION_BUS_ADDRESS/.test(reason)) return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
  if (/org\.freedesktop\.secrets|ServiceUnknown|was not provided/i.test(reason)) return 'no Secret Service (such as gnome-keyring) runs on the D-Bus session bus';
  if (/no result found|locked/i.test(reason)) return `${reason} (is there an unlocked default keyring?)`;
  return reason;
}

/**
 * node:child_process, loaded at the first keychain call: connect() loads this module for every device,
 * most of which get their secret elsewhere (CMDB_TOKEN, credentials.yaml), and it costs ~10 ms.
 */
function childProcess(): typeof import('node:child_process') {
  return createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
}

// Named from dist/src/config/ as from the bundle in dist/src/bundle/ (scripts/bundle.js).
const HELPER = fileURLToPath(new URL('../config/keychain-helper.js', import.meta.url));

/**
 * The platform's own lookup tool, when it has one this store can read with: on Linux libsecret's
 * `secret-tool`, which finds what @napi-rs/keyring files under the Secret Service (attributes
 * `service` and `username`). A native program starts in a fraction of the time of a Node helper.
 */
function lookupTool(platform: NodeJS.Platform, account: string): [string, string[]] | null {
  return platform === 'linux' ? ['secret-tool', ['lookup', 'service', KEYCHAIN_SERVICE, 'username', account]] : null;
}

/** What the lookup tool said: the secret, none (null), or undefined when it could not tell. */
type Lookup = string | null | undefined;

/**
 * The OS keychain through @napi-rs/keyring, service `cmdb`, one account per device and one for its
 * session. Each call runs in a short-lived child process killed after the timeout (see keychain-helper.ts),
 * which also keeps the native binding out of every command that needs no secret. A read first asks the
 * platform's lookup tool (a killable child too) and falls back to the helper when that tool is missing
 * or fails in any way but "not found": the helper's errors are the ones the user sees.
 */
export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location: string;

  constructor(private readonly env: NodeJS.ProcessEnv, private readonly timeoutMs = keychainTimeoutMs(env)) {
    this.location = `${keychainName(process.platform)} (service '${KEYCHAIN_SERVICE}')`;
  }

  private fail(reason: string): KeychainError {
    return new KeychainError(keychainName(process.platform), explain(reason, this.env), this.env);
  }

  private call(request: KeychainRequest): Promise<string | boolean | null | Record<string, string | null>> {
    return new Promise((resolve, reject) => {
      const child = childProcess().spawn(process.execPath, [HELPER], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(this.timedOut());
      }, this.timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(this.fail(e.message));
      });
      child.on('close', () => {
        clearTimeout(timer);
        let answer: KeychainAnswer;
        try {
          answer = JSON.parse(out) as KeychainAnswer;
        } catch {
          return reject(this.fail(err.trim().split('\n').pop() || 'the keychain helper failed'));
        }
        if (answer.ok) resolve(answer.value);
        else reject(this.fail(answer.error));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(JSON.stringify(request));
    });
  }

  private timedOut(): KeychainError {
    return this.fail(`it did not answer within ${this.timeoutMs / 1000} s (raise CMDB_KEYCHAIN_TIMEOUT if it is just slow)`);
  }

  /** One read by the platform's lookup tool: it prints the secret and exits 0, or exits 1 silently when there is none. */
  private lookup(account: string): Promise<Lookup> {
    const tool = lookupTool(process.platform, account);
    if (!tool) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const child = childProcess().spawn(tool[0], tool[1], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(this.timedOut());
      }, this.timeoutMs);
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.on('error', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) {
          const secret = Buffer.concat(out);
          // A secret that is not UTF-8 text is left to the helper, which reports it.
          const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
          try {
            resolve(text.decode(secret));
          } catch {
            resolve(undefined);
          }
        } else resolve(code === 1 && err.trim() === '' && out.length === 0 ? null : undefined);
      });
    });
  }

  async get(account: string): Promise<string | null> {
    const found = await this.lookup(account);
    if (found !== undefined) return found;
    const value = await this.call({ op: 'get', service: KEYCHAIN_SERVICE, account });
    return typeof value === 'string' ? value : null;
  }

  /** Many reads in one helper process: a run on a hundred devices does not start a hundred. */
  async getMany(accounts: string[]): Promise<Map<string, string | null>> {
    if (!accounts.length) return new Map();
    const value = await this.call({ op: 'getMany', service: KEYCHAIN_SERVICE, account: '', accounts });
    const found = value && typeof value === 'object' ? value : {};
    return new Map(accounts.map((a) => [a, typeof found[a] === 'string' ? found[a] : null]));
  }

  async set(account: string, secret: string): Promise<void> {
    await this.call({ op: 'set', service: KEYCHAIN_SERVICE, account, secret });
  }

  async delete(account: string): Promise<boolean> {
    return (await this.call({ op: 'delete', service: KEYCHAIN_SERVICE, account })) === true;
  }
}

/** --insecure-storage: credentials.yaml (mode 0600) beside the profiles, with a warning each run that uses it. */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly location: string;
  private warned = false;

  constructor(readonly path: string, private readonly warn: (message: string) => void, private readonly lockWaitMs?: number) {
    this.location = `${path} (plain text, --insecure-storage)`;
  }

  private read(): Record<string, string> {
    this.warnOnce();
    const hint = `fix that line, or delete ${this.path} and log in again`;
    const file = readYamlFile(this.path, hint);
    if (!file || file.doc.contents === null) return {};
    const map = file.doc.contents;
    if (!yaml().isMap(map)) throw fileError(this.path, file.line(map), 'expected a mapping of accounts to secrets', hint);
    const secrets: Record<string, string> = {};
    for (const pair of map.items) {
      const value = yaml().isScalar(pair.value) ? pair.value.value : pair.value;
      // Only the line is named: the value is a secret.
      if (typeof value !== 'string') throw fileError(this.path, file.line(pair.value ?? pair.key), 'each secret must be a string', hint);
      secrets[String(yaml().isScalar(pair.key) ? pair.key.value : pair.key)] = value;
    }
    return secrets;
  }

  private write(secrets: Record<string, string>): void {
    const header = '# cmdb secrets in plain text (--insecure-storage): anyone who can read this file can use them.\n';
    writePrivateFile(this.path, header + yaml().stringify(secrets));
  }

  private warnOnce(): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`secrets are kept in plain text in ${this.path} (--insecure-storage): anyone who can read that file can use them`);
  }

  async get(account: string): Promise<string | null> {
    return this.read()[account] ?? null;
  }

  /** Read-modify-write under the file's lock: other cmdb processes may be saving their own secrets. */
  async set(account: string, secret: string): Promise<void> {
    await withLock(lockFileFor(this.path), () => this.write({ ...this.read(), [account]: secret }), { waitMs: this.lockWaitMs });
  }

  async delete(account: string): Promise<boolean> {
    return withLock(lockFileFor(this.path), () => {
      const secrets = this.read();
      if (!(account in secrets)) return false;
      delete secrets[account];
      this.write(secrets);
      return true;
    }, { waitMs: this.lockWaitMs });
  }
}

/**
 * A store whose reads were done up front (KeychainStore.getMany), shared by the devices of one run:
 * a read is answered from memory, a write goes through and is remembered.
 */
export class PrefetchedStore implements SecretStore {
  readonly kind: SecretsKind;
  readonly location: string;

  constructor(readonly inner: SecretStore, private readonly values: Map<string, string | null>) {
    this.kind = inner.kind;
    this.location = inner.location;
  }

  async get(account: string): Promise<string | null> {
    return this.values.has(account) ? this.values.get(account)! : this.inner.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    await this.inner.set(account, secret);
    this.values.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    this.values.delete(account);
    return this.inner.delete(account);
  }
}

/** The secret as its store holds it now, past a prefetched copy: another process may have changed it. */
export function readNow(store: SecretStore, account: string): Promise<string | null> {
  return store instanceof PrefetchedStore ? store.inner.get(account) : store.get(account);
}

export function openSecretStore(kind: SecretsKind, env: NodeJS.ProcessEnv, warn: (message: string) => void): SecretStore {
  return kind === 'file' ? new FileSecretStore(credentialsPath(env), warn, lockTimeoutMs(env)) : new KeychainStore(env);
}
