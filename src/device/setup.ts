// What the device layer's parts (selecting the profile, the credential, the connection, the catalogue)
// are given of a device: the run's settings and environment, the device's profile and merged settings,
// where its messages, questions and requests go, and its client. The run's Device (device.ts) is one;
// the parts take it as this, and so never import the class that uses them.
import type { Dispatcher } from 'undici';
import type { CmdbClient, Exchange, WriteTally } from '../api/client.js';
import type { DeviceProfile, SecretsKind } from '../config/profiles.js';
import type { SecretStore } from '../config/secrets.js';
import type { Settings } from '../settings.js';
import type { DeviceSettings } from './settings.js';

/** The secret stores the devices of one run share (read in one keychain call). */
export type SharedStores = Partial<Record<SecretsKind, SecretStore>>;

/** A connected device: its client, and how to let go of it (end an ephemeral session, then close). */
export interface Connection {
  client: CmdbClient;
  close: () => Promise<void>;
}

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
  connect?: (device: DeviceSetup) => Promise<Connection>;
  /** Where its clients count their writes (the run's, for what an interruption says). */
  writes?: WriteTally;
}

/** A device as the device layer's parts see it. */
export interface DeviceSetup {
  readonly deps: DeviceDeps;
  /** The run's settings, as given (they select the profile). */
  readonly settings: Settings;
  readonly env: NodeJS.ProcessEnv;
  /** --demo: the built-in emulated device, which has no profile. */
  readonly demo: boolean;
  /** The saved profile of this device (null: none), selected once. */
  readonly profile: DeviceProfile | null;
  /** The settings merged with the profile's, once (src/device/settings.ts). */
  readonly merged: DeviceSettings;
  warn(message: string): void;
  ask(question: string): Promise<string | null>;
  client(): Promise<CmdbClient>;
}
