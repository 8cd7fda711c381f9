// The emulated device as a library: `startEmulator` builds its database (state file or seed), its
// reference index, transactions, API and HTTP front, and listens.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TableDef } from '../catalogue/index.js';
import type { DeviceRelease } from '../catalogue/device-schema.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { Api } from './api.js';
import { Authenticator, type EmulatorAdmin, type EmulatorToken } from './login.js';
import {
  certificateFingerprint,
  certificateHosts,
  generateSelfSignedCertificate,
  isUsableCertificate,
  type CertificatePair,
} from './cert.js';
import { materialize, withUuid, type Obj } from './schema.js';
import { DEVICE } from './envelope.js';
import { Integrity, ReferenceIndex } from './references.js';
import { flavorOf, staticKeys } from './seed.js';
import { HttpFront, type ReceivedRequest } from './server.js';
import { buildDatabase, loadState, saveState, snapshot, type SavedState } from './state.js';
import { CommittedView, KeyedTable, slotOf, type Database, type Owner } from './store.js';
import { TransactionManager } from './transactions.js';

export type { EmulatorAdmin, EmulatorToken } from './login.js';
export type { ReceivedRequest } from './server.js';
export { StateFileError } from './state.js';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: the port saved in the state file (see `keepAddress`), else 0 (ephemeral). */
  port?: number;
  /** Default true: the state file keeps the port, and a restart without `port` listens on it again. */
  keepAddress?: boolean;
  /** Write the state file only after a committed change, never at start (an emulator serving one command). */
  saveOnlyChanges?: boolean;
  /** true: a self-signed certificate generated at start (or reused from the state file); or the PEMs to serve. */
  tls?: boolean | { key: string; cert: string };
  /**
   * Loaded at start if present; every committed change is persisted atomically (temp file + rename).
   * It is written at start only when it is new or what it keeps (credentials, certificate, port) changed.
   */
  stateFile?: string;
  /** Default 'demo' (used when no state file exists yet). */
  seed?: 'demo' | 'empty';
  /** Default ['root', 'dmz']; the first is the management VDOM. */
  vdoms?: string[];
  /** Default: one `admin` with a random password, all groups, all VDOMs. */
  admins?: EmulatorAdmin[];
  /** Default: one random token with all groups and VDOMs. */
  tokens?: EmulatorToken[];
  /** Default 1 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Default 5 failed authentications from one source, then 429 for `blockSeconds`. */
  maxFailedLogins?: number;
  /** Default 60. */
  blockSeconds?: number;
  /** Default 900 (idle time after which a session answers 401). */
  sessionTtlSeconds?: number;
  /** A login banner must be accepted (POST /logindisclaimer confirm=1). */
  disclaimer?: boolean;
  /** Default 'cmdb-emulator'; a function of the port it listens on, to tell several emulators apart. */
  hostname?: string | ((port: number) => string);
  /** The serial number in every answer's envelope (default FGVMEMU000000001), or a function of the port. */
  serial?: string | ((port: number) => string);
  /** Default true: keep every request in `requests` (a long-running emulator turns this off). */
  recordRequests?: boolean;
  /** The tables it serves; default the shipped 6.4.14 catalogue (`--schema FILE`: another release's). */
  catalogue?: Catalogue;
  /**
   * The release (and serial number) its answers report; default those of the emulated 6.4.14 device.
   * `7.6.0` (or a release from 7.6 on) takes the configuration backup as a POST (PROTOCOL.md).
   */
  release?: string | DeviceRelease;
}

export interface StartLine {
  url: string;
  token: string;
  username: string;
  password: string;
  vdoms: string[];
  fingerprint: string | null;
}

export interface RunningEmulator extends StartLine {
  certPem: string | null;
  keyPem: string | null;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /**
   * Committed state: an array for keyed tables (in order), an object for singletons; `vdom` defaults to the management
   * VDOM.
   */
  objects(tablePath: string, vdom?: string): Record<string, unknown>[] | Record<string, unknown>;
  /** Bulk insert (tests, benchmarks): defaults are filled in, not validated; a duplicate key throws. */
  populate(tablePath: string, vdom: string, objects: Record<string, unknown>[]): void;
  expireSessions(): void;
  startLine(): StartLine;
  /** Stops listening (closing keep-alive sockets too); the state file is already up to date. */
  close(): Promise<void>;
}

const DEFAULT_VDOMS = ['root', 'dmz'];
/** The client's rule for VDOM names (src/settings.ts): the device has no name the client refuses. */
const VDOM_NAME = /^[A-Za-z0-9_.-]{1,31}$/;

const identity = (value: string | ((port: number) => string) | undefined, port: number) =>
  typeof value === 'function' ? value(port) : value;
const MIB = 1024 * 1024;

/** API tokens of the device: 30 lowercase letters and digits. */
function randomToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(30)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

function resolveCredentials(saved: SavedState | undefined): { password: string; token: string } {
  return saved?.credentials ?? { password: randomBytes(12).toString('base64url'), token: randomToken() };
}

function resolveCertificate(options: EmulatorOptions, saved: SavedState | undefined): CertificatePair | null {
  if (!options.tls) return null;
  if (options.tls !== true) return { certPem: options.tls.cert, keyPem: options.tls.key };
  if (saved?.tls && isUsableCertificate(saved.tls)) return saved.tls;
  return generateSelfSignedCertificate({ hosts: certificateHosts(options.host) });
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function catalogued(catalogue: Catalogue, tablePath: string): TableDef {
  const found = catalogue.find(tablePath);
  const table = found?.aliasOf ? catalogue.find(found.aliasOf) : found;
  if (!table) throw new Error(`${tablePath} is not a catalogued table`);
  return table;
}

function readCommitted(db: Database, catalogue: Catalogue, tablePath: string, vdom: string): Obj[] | Obj {
  const state = db.table(vdom, catalogued(catalogue, tablePath).path);
  return structuredClone(state instanceof KeyedTable ? [...state.all()] : state.object);
}

function insertAll(
  db: Database,
  index: ReferenceIndex,
  catalogue: Catalogue,
  tablePath: string,
  vdom: string,
  objects: Obj[],
): void {
  const table = catalogued(catalogue, tablePath);
  const state = db.table(vdom, table.path);
  if (!(state instanceof KeyedTable)) throw new Error(`${table.path} is a singleton`);
  const rows = objects.map((object) => withUuid(table, materialize(table.fields, structuredClone(object), true)));
  for (const row of rows)
    if (state.has(row[table.key!])) throw new Error(`duplicate key ${String(row[table.key!])} in ${table.path}`);
  for (const row of rows) state.insert(row);
  index.record(
    db.ownerOf(vdom, table.path),
    table.path,
    rows.map((after) => ({ after })),
  );
  state.revision++;
}

/** The factory objects of each table copy, worked out once: what `q_static` and a refused delete look at. */
function staticKeysOf(
  vdoms: readonly string[],
  seed: 'demo' | 'empty',
): (owner: Owner, table: TableDef) => ReadonlySet<string> {
  const known = new Map<string, ReadonlySet<string>>();
  return (owner, table) => {
    const slot = slotOf(owner, table.path);
    let keys = known.get(slot);
    if (!keys) known.set(slot, (keys = staticKeys(table, flavorOf(vdoms, owner), seed)));
    return keys;
  };
}

function sameExtras(saved: SavedState, extras: Pick<SavedState, 'credentials' | 'tls' | 'port'>): boolean {
  const kept = (state: Pick<SavedState, 'credentials' | 'tls' | 'port'>) =>
    JSON.stringify([state.credentials, state.tls ?? null, state.port ?? null]);
  return kept(saved) === kept(extras);
}

/**
 * `7.6.0` → `{version: 'v7.6.0', build}`; a release given whole as it is; undefined (6.4.14, the envelope's own) when
 * not given.
 */
function releaseOf(release: string | DeviceRelease | undefined): DeviceRelease | undefined {
  if (release === undefined || typeof release === 'object') return release;
  const version = `v${release.replace(/^v/, '')}`;
  if (!/^v\d+\.\d+\.\d+$/.test(version))
    throw new Error(`invalid release '${release}': give major.minor.patch, such as 7.6.0`);
  return { version, build: version === 'v6.4.14' ? 2093 : 3401 };
}

/** Starts the emulated device and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const saved = options.stateFile ? loadState(options.stateFile) : undefined;
  const vdoms = options.vdoms ?? (saved ? Object.keys(saved.vdoms) : DEFAULT_VDOMS);
  // A name the client could never address (it refuses it before sending) is no VDOM of this device either.
  const refused = vdoms.find((vdom) => !VDOM_NAME.test(vdom));
  if (refused !== undefined)
    throw Object.assign(
      new Error(`invalid VDOM name '${refused}': VDOM names are letters, digits, _ . - (at most 31 characters)`),
      { code: 'EVDOMNAME' },
    );
  const credentials = resolveCredentials(saved);
  const certificate = resolveCertificate(options, saved);
  const catalogue = options.catalogue ?? SHIPPED_CATALOGUE;
  // The tables a saved state does not hold are made from the seed it was started with (tables are made on first use).
  const seed = saved ? (saved.seed ?? 'demo') : (options.seed ?? 'demo');
  const db = buildDatabase(vdoms, seed, saved, catalogue);
  const stateFile = options.stateFile;
  const keepAddress = options.keepAddress ?? true;
  const host = options.host ?? '127.0.0.1';
  const server = certificate
    ? createHttpsServer({ cert: certificate.certPem, key: certificate.keyPem })
    : createHttpServer();
  const port = await listen(server, options.port ?? (keepAddress ? saved?.port : undefined) ?? 0, host);
  const extras: Pick<SavedState, 'credentials' | 'tls' | 'port' | 'seed'> = {
    credentials,
    seed,
    ...(options.tls === true && certificate ? { tls: certificate } : {}),
    ...(keepAddress ? { port } : saved?.port !== undefined ? { port: saved.port } : {}),
  };
  const persist = (): void => {
    if (stateFile) saveState(stateFile, snapshot(db, extras));
  };
  const admins = options.admins ?? [{ username: 'admin', password: credentials.password }];
  const tokens = options.tokens ?? [{ token: credentials.token }];
  const auth = new Authenticator({
    admins,
    tokens,
    maxFailedLogins: options.maxFailedLogins ?? 5,
    blockSeconds: options.blockSeconds ?? 60,
    sessionTtlSeconds: options.sessionTtlSeconds ?? 900,
    disclaimer: options.disclaimer ?? false,
  });
  const index = new ReferenceIndex(db, catalogue);
  const transactions = new TransactionManager(db, index, persist);
  const release = releaseOf(options.release);
  const api = new Api({
    db,
    committed: transactions.guard(new CommittedView(db, persist, index)),
    transactions,
    integrity: new Integrity(index, staticKeysOf(vdoms, seed)),
    hostname: identity(options.hostname, port) ?? 'cmdb-emulator',
    serial: identity(options.serial, port) ?? release?.serial ?? DEVICE.serial,
    catalogue,
    release,
  });
  const requests: ReceivedRequest[] = [];
  server.on(
    'request',
    new HttpFront({
      auth,
      api,
      maxBodyBytes: options.maxBodyBytes ?? MIB,
      requests: options.recordRequests === false ? null : requests,
    }).handle,
  );
  // A run that changes nothing leaves the file as it was (a read-only --demo command, a restart).
  if (!options.saveOnlyChanges && (!saved || !sameExtras(saved, extras))) persist();

  const fingerprint = certificate ? certificateFingerprint(certificate.certPem) : null;
  const startLine = (): StartLine => ({
    url: `${certificate ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    token: tokens[0]?.token ?? '',
    username: admins[0]?.username ?? '',
    password: admins[0]?.password ?? '',
    vdoms: [...vdoms],
    fingerprint,
  });
  let closing: Promise<void> | undefined;
  return {
    ...startLine(),
    certPem: certificate?.certPem ?? null,
    keyPem: certificate?.keyPem ?? null,
    requests,
    objects: (tablePath, vdom = vdoms[0]) => readCommitted(db, catalogue, tablePath, vdom),
    populate: (tablePath, vdom, objects) => {
      insertAll(db, index, catalogue, tablePath, vdom, objects);
      persist();
    },
    expireSessions: () => auth.expireAll(),
    startLine,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
