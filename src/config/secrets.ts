// Where a device's secrets live: the OS keychain (each call a child process, killed at its timeout)
// or, with --insecure-storage, credentials.yaml; one store per device, never a secret anywhere else.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYCHAIN_TIMEOUT_MS } from '../settings.js';
import { AuthError } from '../errors.js';
import { writePrivateFile } from '../files.js';
import { fileError, readYamlFile, yaml } from './files.js';
import { lockFileFor, withLock } from './lock.js';
import type { KeychainAnswer, KeychainRequest } from './keychain-helper.js';
import { KEYCHAIN_SERVICE, lookupArgs, nativeTool, runChild, TIMED_OUT, type ToolRun } from './lookup.js';
import { configDir } from './paths.js';
import type { SecretsKind } from './profiles.js';

export { credentialAccount, KEYCHAIN_SERVICE, sessionAccount } from './lookup.js';

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
      `without a keychain, give the credential in the environment (CMDB_TOKEN, ` +
        `or CMDB_USERNAME and CMDB_PASSWORD), or keep it in a plain-text file (mode 0600) ` +
        `with 'cmdb login --insecure-storage' (${credentialsPath(env)})`,
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
  if (!env.DBUS_SESSION_BUS_ADDRESS && /autolaunch|DBUS_SESSION_BUS_ADDRESS/.test(reason))
    return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
  if (/org\.freedesktop\.secrets|ServiceUnknown|was not provided/i.test(reason))
    return 'no Secret Service (such as gnome-keyring) runs on the D-Bus session bus';
  if (/no result found|locked/i.test(reason)) return `${reason} (is there an unlocked default keyring?)`;
  return reason;
}

// Named from dist/src/config/ as from the bundle in dist/src/bundle/ (scripts/bundle.js).
const HELPER = fileURLToPath(new URL('../config/keychain-helper.js', import.meta.url));

/** What the native tool said: the secret, none (null), or undefined when it could not tell. */
type Lookup = string | null | undefined;

/** UTF-8 text, or undefined for bytes that are not (left to the helper, which reports them). */
function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * One item of `secret-tool search` on stdout: its id, label, secret, dates and maybe its schema, each
 * on one line in this order. A secret with a line break, or an item without a secret (locked), does
 * not match, nor does anything between two items.
 */
const SEARCH_ITEM = /\[\/[^\]\n]*\]\nlabel = (.*)\nsecret = (.*)\ncreated = .*\nmodified = .*\n(?:schema = .*\n)?/y;

/**
 * The secrets `secret-tool search --all service cmdb` printed, by account, or undefined at the least
 * doubt. The tool prints each item's attributes to stderr, in the order of its items on stdout but in
 * no set order within an item, so the nth `username` attribute is the nth item's; that pairing holds
 * only if every item printed exactly one `service` and one `username` attribute and a label that is
 * the binding's for that account, and each account occurs once.
 */
function parseSearch(out: string, err: string): Map<string, string> | undefined {
  const items: { label: string; secret: string }[] = [];
  SEARCH_ITEM.lastIndex = 0;
  while (SEARCH_ITEM.lastIndex < out.length) {
    const m = SEARCH_ITEM.exec(out);
    if (!m) return undefined;
    items.push({ label: m[1]!, secret: m[2]! });
  }
  const lines = err.split('\n');
  if (lines.pop() !== '') return undefined;
  const users: string[] = [];
  let services = 0;
  for (const line of lines) {
    if (!line.startsWith('attribute.')) return undefined;
    if (line === `attribute.service = ${KEYCHAIN_SERVICE}`) services++;
    else if (line.startsWith('attribute.username = ')) users.push(line.slice('attribute.username = '.length));
  }
  if (services !== items.length || users.length !== items.length) return undefined;
  const found = new Map<string, string>();
  for (const [i, { label, secret }] of items.entries()) {
    const account = users[i]!;
    if (label !== `keyring:${account}@${KEYCHAIN_SERVICE}` || found.has(account)) return undefined;
    found.set(account, secret);
  }
  return found;
}

/**
 * The OS keychain through @napi-rs/keyring, service `cmdb`, one account per device and one for its
 * session. Each call runs in a short-lived child process killed after the timeout (see keychain-helper.ts),
 * which also keeps the native binding out of every command that needs no secret. A read first asks the
 * platform's native tool (a killable child too) and falls back to the helper when that tool is missing,
 * fails in any way but "not found" or answers with any doubt: the helper's errors are the ones the user sees.
 */
export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location: string;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
  ) {
    this.location = `${keychainName(process.platform)} (service '${KEYCHAIN_SERVICE}')`;
  }

  private fail(reason: string): KeychainError {
    return new KeychainError(keychainName(process.platform), explain(reason, this.env), this.env);
  }

  private async call(request: KeychainRequest): Promise<string | boolean | null | Record<string, string | null>> {
    const run = await this.run(process.execPath, [HELPER], JSON.stringify(request));
    if (run instanceof Error) throw this.fail(run.message);
    let answer: KeychainAnswer;
    try {
      answer = JSON.parse(run.out.toString('utf8')) as KeychainAnswer;
    } catch {
      throw this.fail(run.err.trim().split('\n').pop() || 'the keychain helper failed');
    }
    if (answer.ok) return answer.value;
    throw this.fail(answer.error);
  }

  /**
   * A child process, killed at the timeout (a KeychainError); `input` goes to its stdin (a secret
   * never goes in argv). The error when it cannot be started.
   */
  private async run(command: string, args: string[], input?: string): Promise<ToolRun | Error> {
    const ended = await runChild(command, args, this.env, this.timeoutMs, input);
    if (ended === TIMED_OUT) throw this.timedOut();
    return ended;
  }

  private timedOut(): KeychainError {
    return this.fail(
      `it did not answer within ${this.timeoutMs / 1000} s (raise CMDB_KEYCHAIN_TIMEOUT if it is just slow)`,
    );
  }

  /** The native tool run with these arguments; undefined when there is no such tool here or it cannot be started. */
  private async tool(args: string[]): Promise<ToolRun | undefined> {
    const tool = nativeTool(process.platform);
    const run = tool ? await this.run(tool, args) : undefined;
    return run instanceof Error ? undefined : run;
  }

  /** One read by the native tool: it prints the secret and exits 0, or exits 1 silently when there is none. */
  private async lookup(account: string): Promise<Lookup> {
    const run = await this.tool(lookupArgs(account));
    if (!run) return undefined;
    if (run.code === 0) return utf8(run.out);
    return run.code === 1 && run.err.trim() === '' && run.out.length === 0 ? null : undefined;
  }

  /** Every secret of the service by the native tool in one search, or undefined when its answer leaves any doubt. */
  private async search(): Promise<Map<string, string> | undefined> {
    const run = await this.tool(['search', '--all', 'service', KEYCHAIN_SERVICE]);
    const out = run?.code === 0 ? utf8(run.out) : undefined;
    return out === undefined ? undefined : parseSearch(out, run!.err);
  }

  async get(account: string): Promise<string | null> {
    const found = await this.lookup(account);
    if (found !== undefined) return found;
    const value = await this.call({ op: 'get', service: KEYCHAIN_SERVICE, account });
    return typeof value === 'string' ? value : null;
  }

  /**
   * Many reads at once: a run on a hundred devices does not start a hundred processes. One search by
   * the native tool answers for every account (one absent from an unambiguous answer has no secret),
   * else one helper process reads them all.
   */
  async getMany(accounts: string[]): Promise<Map<string, string | null>> {
    if (!accounts.length) return new Map();
    const all = await this.search();
    if (all) return new Map(accounts.map((a) => [a, all.get(a) ?? null]));
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

/**
 * --insecure-storage: credentials.yaml (mode 0600) beside the profiles, with a warning each run that
 * stores a secret there or uses one it holds (not one that only looks: a login that then fails).
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly location: string;
  private warned = false;

  constructor(
    readonly path: string,
    private readonly warn: (message: string) => void,
    private readonly lockWaitMs?: number,
    /** Accounts whose device's profile acknowledged plain-text storage: read without the warning. */
    private readonly acknowledged: (account: string) => boolean = () => false,
  ) {
    this.location = `${path} (plain text, --insecure-storage)`;
  }

  private read(): Record<string, string> {
    const hint = `fix that line, or delete ${this.path} and log in again`;
    const file = readYamlFile(this.path, hint);
    if (!file || file.doc.contents === null) return {};
    const map = file.doc.contents;
    if (!yaml().isMap(map))
      throw fileError(this.path, file.line(map), 'expected a mapping of accounts to secrets', hint);
    const secrets: Record<string, string> = {};
    for (const pair of map.items) {
      const value = yaml().isScalar(pair.value) ? pair.value.value : pair.value;
      // Only the line is named: the value is a secret.
      if (typeof value !== 'string')
        throw fileError(this.path, file.line(pair.value ?? pair.key), 'each secret must be a string', hint);
      secrets[String(yaml().isScalar(pair.key) ? pair.key.value : pair.key)] = value;
    }
    return secrets;
  }

  private write(secrets: Record<string, string>): void {
    const header = '# cmdb secrets in plain text (--insecure-storage): anyone who can read this file can use them.\n';
    writePrivateFile(this.path, header + yaml().stringify(secrets));
  }

  private warnOnce(account: string): void {
    if (this.warned || this.acknowledged(account)) return;
    this.warned = true;
    this.warn(
      `secrets are kept in plain text in ${this.path} (--insecure-storage): ` +
        `anyone who can read that file can use them ('cmdb device set <name> plain-text-ok=true' silences ` +
        `this for a device once you accept it)`,
    );
  }

  async get(account: string): Promise<string | null> {
    const secret = this.read()[account] ?? null;
    if (secret !== null) this.warnOnce(account);
    return secret;
  }

  /** Read-modify-write under the file's lock: other cmdb processes may be saving their own secrets. */
  async set(account: string, secret: string): Promise<void> {
    await withLock(lockFileFor(this.path), () => this.write({ ...this.read(), [account]: secret }), {
      waitMs: this.lockWaitMs,
    });
    this.warnOnce(account);
  }

  async delete(account: string): Promise<boolean> {
    return withLock(
      lockFileFor(this.path),
      () => {
        const secrets = this.read();
        if (!(account in secrets)) return false;
        delete secrets[account];
        this.write(secrets);
        return true;
      },
      { waitMs: this.lockWaitMs },
    );
  }
}

/**
 * A store whose reads were done up front (KeychainStore.getMany), shared by the devices of one run:
 * a read is answered from memory, a write goes through and is remembered.
 */
export class PrefetchedStore implements SecretStore {
  readonly kind: SecretsKind;
  readonly location: string;

  constructor(
    readonly inner: SecretStore,
    private readonly values: Map<string, string | null>,
  ) {
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

/**
 * The store of a kind. `waits`: how long a keychain call may take (CMDB_KEYCHAIN_TIMEOUT), and how long
 * to wait for another process holding credentials.yaml (CMDB_LOCK_TIMEOUT; default the lock's).
 */
export function openSecretStore(
  kind: SecretsKind,
  env: NodeJS.ProcessEnv,
  waits: { keychainMs: number; lockMs: number | undefined },
  warn: (message: string) => void,
  acknowledged?: (account: string) => boolean,
): SecretStore {
  return kind === 'file'
    ? new FileSecretStore(credentialsPath(env), warn, waits.lockMs, acknowledged)
    : new KeychainStore(env, waits.keychainMs);
}
