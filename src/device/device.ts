// The device of a run, as the rest of the program sees it: which saved profile (selected once), the
// settings the profile takes part in merged once (VDOMs, timeout, CA file, prefix: flag, environment,
// profile, default), and a client and catalogue made on first use. Made from plain values: the run's
// settings and environment, and a few callbacks to the printer and the terminal. The CLI's Context hands
// one to a command (ctx.device()); Tab completion makes its own.
import type { Dispatcher } from 'undici';
import type { ApiRequest, CmdbClient, DescribedRequest, Exchange } from '../api/client.js';
import type { Catalogue } from '../catalogue/provider.js';
import type { DeviceProfile } from '../config/profiles.js';
import type { PlannedRequest } from '../output/requests.js';
import { readProfiles } from '../config/profiles.js';
import { otherDeviceEnv, parseVdoms, timeoutOf, type Settings } from '../settings.js';
import { profileFor } from './select.js';
import type { SharedStores } from './credentials.js';
import type { Connection } from './connect.js';

/** What a device needs from the run around it: plain values, and where its messages and questions go. */
export interface DeviceDeps {
  settings: Settings;
  env: NodeJS.ProcessEnv;
  /** A warning for the user (--insecure, plain HTTP, plain-text secrets). */
  warn(message: string): void;
  /** --verbose: one HTTP exchange, its secrets already redacted. */
  exchange(ex: Exchange): void;
  /** Asks a person one line on the terminal; null when there is no terminal to ask on. */
  ask(question: string): Promise<string | null>;
  /** The transport every client of this device uses (a mock in tests); undici's own by default. */
  dispatcher?: Dispatcher;
  /** The profile, when the run fixed it (one device of several); else selected from the settings. */
  profile?: DeviceProfile | null;
  /** The secret stores the devices of one run share (read in one keychain call). */
  stores?: SharedStores;
  /** How a device reaches its device: the device layer's connect(), or a stand-in in tests. */
  connect?: (device: Device) => Promise<Connection>;
}

export class Device {
  readonly settings: Settings;
  readonly env: NodeJS.ProcessEnv;
  private selected: { profile: DeviceProfile | null } | undefined;
  private clientPromise: Promise<CmdbClient> | undefined;
  private cataloguePromise: Promise<Catalogue> | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];
  /** --dry-run: the writes the command would have sent, in order. */
  private readonly planned: PlannedRequest[] = [];
  private plannedTaken = false;

  constructor(readonly deps: DeviceDeps) {
    this.settings = deps.settings;
    this.env = deps.env;
    if (deps.profile !== undefined) this.selected = { profile: deps.profile };
  }

  get demo(): boolean {
    return this.settings.demo;
  }

  /**
   * The saved profile this run uses: the one named by -d/CMDB_DEVICE, else the one saved for
   * --host/CMDB_HOST, else (without a host) the default. Read once, synchronously: the profile's VDOM
   * is needed before the first request is built.
   */
  get profile(): DeviceProfile | null {
    if (!this.selected) {
      this.selected = { profile: profileFor(readProfiles(this.env), this.settings.device, this.settings.host) };
    }
    return this.selected.profile;
  }

  /** VDOMs from --vdom, CMDB_VDOM or the profile; undefined means the device's management VDOM. */
  get vdoms(): string[] | undefined {
    if (this.settings.vdoms) return [...this.settings.vdoms];
    const vdom = this.demo ? undefined : this.profile?.vdom;
    return vdom === undefined ? undefined : parseVdoms(vdom);
  }

  /** Per-request timeout in milliseconds: flag, CMDB_TIMEOUT, the profile's, then 30 s. */
  get timeoutMs(): number {
    return timeoutOf(
      this.settings,
      this.settings.timeoutMs === undefined && !this.demo ? this.profile?.timeout : undefined,
    );
  }

  warn(message: string): void {
    this.deps.warn(message);
  }

  ask(question: string): Promise<string | null> {
    return this.deps.ask(question);
  }

  async client(): Promise<CmdbClient> {
    this.clientPromise ??= (async () => {
      const connect = this.deps.connect ?? (await import('./connect.js')).connect;
      const { client, close } = await connect(this);
      this.cleanups.push(close);
      if (this.settings.dryRun) client.recordWrites(await this.planRecorder());
      return client;
    })();
    return this.clientPromise;
  }

  /** The catalogue of this device: the shipped one, or the device's own schema. */
  async catalogue(): Promise<Catalogue> {
    this.cataloguePromise ??= import('./catalogue.js').then(({ catalogueFor }) => catalogueFor(this));
    return this.cataloguePromise;
  }

  /** Another saved device in the same run (`diff --from`): its own profile and credential; close() it after use. */
  other(name: string): Device {
    return new Device({
      ...this.deps,
      settings: Object.freeze({
        ...this.settings,
        device: name,
        host: undefined,
        demo: false,
        credential: null,
        apiPrefix: undefined,
      }),
      env: otherDeviceEnv(this.env),
      profile: undefined,
    });
  }

  /** Keeps each write of a dry run as it would be sent, its table's secrets hidden. */
  private async planRecorder(): Promise<(req: ApiRequest, described: DescribedRequest) => void> {
    const { findTable } = await import('../catalogue/index.js');
    const { redactSecrets } = await import('../catalogue/secrets.js');
    return (req, described) => {
      const body = described.body;
      const hidden =
        body && typeof body === 'object' && !Array.isArray(body)
          ? redactSecrets(findTable(req.tablePath)?.fields, body as Record<string, unknown>)
          : body;
      this.planned.push({ ...described, body: hidden });
    };
  }

  /** The writes a dry run kept, for a command that prints them in its own shape (apply: with its plan). */
  takePlanned(): PlannedRequest[] {
    this.plannedTaken = true;
    return [...this.planned];
  }

  /** The writes a dry run kept and nobody printed yet (undefined once a command took them). */
  untakenPlanned(): PlannedRequest[] | undefined {
    return this.plannedTaken ? undefined : [...this.planned];
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}
