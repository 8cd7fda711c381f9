// The device of a run, as the rest of the program sees it: which saved profile (selected once), its
// settings merged with the profile's once (src/device/settings.ts), and a client and catalogue made
// on first use. Made from plain values: the run's settings and environment, and a few callbacks to the
// printer and the terminal. The run's Context hands one to a command (ctx.device()); Tab completion
// makes its own.
import type { ApiRequest, CmdbClient, WireRequest } from '../api/client.js';
import type { Catalogue } from '../catalogue/provider.js';
import { readProfiles, type DeviceProfile } from '../config/profiles.js';
import type { PlannedRequest } from '../output/requests.js';
import { otherDeviceEnv, type Settings } from '../settings.js';
import { profileFor } from './select.js';
import { mergeSettings, type DeviceSettings } from './settings.js';
import type { DeviceDeps, DeviceSetup } from './setup.js';

export class Device implements DeviceSetup {
  readonly settings: Settings;
  readonly env: NodeJS.ProcessEnv;
  private selected: { profile: DeviceProfile | null } | undefined;
  private mergedSettings: DeviceSettings | undefined;
  private clientPromise: Promise<CmdbClient> | undefined;
  private cataloguePromise: Promise<Catalogue> | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];
  /** --dry-run, once the command asked for it: the writes it would have sent, in order. */
  private recorded: PlannedRequest[] | undefined;

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

  /** This device's settings: flag, environment, its profile's (none with --demo), default; merged once. */
  get merged(): DeviceSettings {
    this.mergedSettings ??= mergeSettings(this.settings, this.demo ? null : this.profile);
    return this.mergedSettings;
  }

  /** VDOMs from --vdom, CMDB_VDOM or the profile; undefined means the device's management VDOM. */
  get vdoms(): string[] | undefined {
    const vdoms = this.merged.vdoms;
    return vdoms === undefined ? undefined : [...vdoms];
  }

  /** Per-request timeout in milliseconds: flag, CMDB_TIMEOUT, the profile's, then 30 s. */
  get timeoutMs(): number {
    return this.merged.timeoutMs;
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
      if (this.recorded) client.recordWrites(await this.recorder(this.recorded));
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

  /**
   * A dry run (--dry-run), asked for by the command: from now on this device's writes are kept instead
   * of sent (reads still go), each as it would go on the wire with its table's secrets hidden. Returns
   * the list they are kept in, for the command to print.
   */
  async recordWrites(): Promise<PlannedRequest[]> {
    if (!this.recorded) {
      this.recorded = [];
      // A client made already keeps them from now on; one made later, from its start (client()).
      if (this.clientPromise) (await this.clientPromise).recordWrites(await this.recorder(this.recorded));
    }
    return this.recorded;
  }

  /** Keeps each write in `into`, its table's secrets hidden. */
  private async recorder(into: PlannedRequest[]): Promise<(req: ApiRequest, wire: WireRequest) => void> {
    const { findTable } = await import('../catalogue/index.js');
    const { redactSecrets } = await import('../catalogue/secrets.js');
    return (req, wire) => {
      const body = wire.body;
      const hidden =
        body && typeof body === 'object' && !Array.isArray(body)
          ? redactSecrets(findTable(req.tablePath)?.fields, body as Record<string, unknown>)
          : body;
      into.push({ ...wire, body: hidden });
    };
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}
