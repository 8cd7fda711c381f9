// A device connected: --demo starts the emulator; otherwise the target, its TLS trust, its credential
// and the CLI's HTTP stack make the client, and the end of the work logs out an ephemeral session.
import { setFlagsFromString } from 'node:v8';
import type { Authenticator, CmdbClient, TlsOptions } from '../api/client.js';
import type { Transport, UndiciParts } from '../api/undici.js';
import { readInputFile } from '../config/files.js';
import type { DeviceProfile } from '../config/profiles.js';
import type { SecretStore } from '../config/secrets.js';
import { UsageError } from '../errors.js';
import { authenticate, type Auth } from './credentials.js';
import { demoStateFile, endpointOf, resolveTarget } from './select.js';
import { mergeSettings } from './settings.js';
import type { Connection, DeviceSetup } from './setup.js';

/**
 * TLS settings of a connection: the CA file's text, the pin; --insecure, and plain HTTP to another
 * machine, warn every time they are used.
 */
export async function tlsOptions(
  device: DeviceSetup,
  settings: { host: string; caFile?: string; fingerprint?: string },
): Promise<TlsOptions> {
  warnPlainHttp(device, settings.host);
  const ca = settings.caFile
    ? await readInputFile(settings.caFile, 'the CA file', 'give a PEM file with --ca-file or CMDB_CA_FILE')
    : undefined;
  const insecure = device.settings.insecure;
  if (insecure) device.warn("TLS verification is off (--insecure): the device's identity is not checked");
  return { ca, insecure, fingerprint: settings.fingerprint ?? null };
}

/** 127.0.0.0/8, ::1 and localhost: the only places a credential may go unencrypted without a word. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(host)
  );
}

/** A credential sent over plain HTTP to another machine can be read on the way: said on every run, as --insecure is. */
function warnPlainHttp(device: DeviceSetup, host: string): void {
  const url = new URL(host);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    device.warn(
      `${host} is plain HTTP: the credential and every answer travel unencrypted, ` +
        `readable by anyone on the way; use https://`,
    );
  }
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
 * The CLI's HTTP stack: the parts of undici the client uses, given to every client it makes. In the
 * bundled program (CommonJS: `require` is defined) they are a file of their own beside it, built without
 * undici's HTTP/2 client (which loads `node:http2`, ~15 ms, for requests the CLI never makes) and run with
 * its code cache (scripts/bundle.js, bin/cmdb.js); from the compiled tree, undici's own modules.
 */
async function loadHttpStack(): Promise<Transport> {
  const { transportFrom, undiciParts } = await import('../api/undici.js');
  const parts = typeof require === 'function' ? (require('./undici.cjs') as UndiciParts) : undiciParts();
  // After undici is loaded: V8 rejects a code cache compiled under other flags (undici.cjs's, bin/cmdb.js);
  // before the first connection compiles llhttp.
  baselineWasmOnly();
  return transportFrom(parts);
}

/** Every client the CLI makes (commands, login, completion, --demo) is made here. */
export async function newClient(
  device: DeviceSetup,
  target: { host: string; prefix?: string; timeoutMs: number },
  tls: TlsOptions,
  auth: Authenticator,
): Promise<CmdbClient> {
  const [{ CmdbClient }, transport] = await Promise.all([import('../api/client.js'), loadHttpStack()]);
  return new CmdbClient({
    baseUrl: target.host,
    prefix: target.prefix,
    auth,
    timeoutMs: target.timeoutMs,
    tls,
    transport,
    dispatcher: device.deps.dispatcher,
    onExchange: device.settings.verbose ? (ex) => device.deps.exchange(ex) : undefined,
    writes: device.deps.writes,
  });
}

/** A client with the end of its work attached: an ephemeral session logs out, then the pool closes. */
export function connection(client: CmdbClient, end: Auth['end']): Connection {
  return {
    client,
    close: async () => {
      if (end) await end(client).catch(() => undefined);
      // Not waited for: by now every request has its answer (and an ephemeral session its logout);
      // what is left is the sockets closing, which the process's exit need not wait for (bin/cmdb.js).
      void client.close().catch(() => undefined);
    },
  };
}

async function connectDemo(device: DeviceSetup): Promise<Connection> {
  const [{ startEmulator }, { tokenAuth }] = await Promise.all([
    import('../emulator/index.js'),
    import('./credentials.js'),
  ]);
  // A fresh port each run, and the state file written only when a command changed something.
  const emulator = await startEmulator({
    stateFile: demoStateFile(device.env),
    seed: 'demo',
    keepAddress: false,
    saveOnlyChanges: true,
  }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ESTATEFILE') throw error;
    throw new UsageError(
      `the demo device's state cannot be used: ${(error as Error).message}`,
      "start it afresh with 'cmdb demo reset'",
    );
  });
  const client = await newClient(
    device,
    { host: emulator.url, timeoutMs: device.merged.timeoutMs },
    {},
    await tokenAuth(emulator.token),
  );
  return {
    client,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * Resolves which device to talk to and how to authenticate: --demo; else the device from
 * --host/CMDB_HOST or the profile (-d/CMDB_DEVICE, or the default), with the credential from
 * CMDB_TOKEN, CMDB_USERNAME/CMDB_PASSWORD, or the profile's store.
 */
export async function connect(device: DeviceSetup): Promise<Connection> {
  if (device.demo) return connectDemo(device);
  const target = resolveTarget(device);
  const tls = await tlsOptions(device, target);
  // A keychain read is a child process: start it first (its modules are loaded by then, so it is
  // spawned within this turn), and load the HTTP stack while it runs.
  await import('../config/secrets.js');
  const credential = authenticate(device, target);
  const stack = new Promise<void>((resolve) => setImmediate(resolve)).then(loadHttpStack);
  const [{ auth, end }] = await Promise.all([credential, stack]);
  const client = await newClient(device, target, tls, auth);
  const { close } = connection(client, end);
  return {
    client,
    close: async () => {
      // The release the answers carried decides the next run's catalogue (device/catalogue.ts).
      if (client.release) await (await import('./catalogue.js')).rememberRelease(device, client.release);
      await close();
    },
  };
}

/**
 * Ends a profile's saved session on the device (`POST /logout`) and deletes it from the store. The
 * saved session goes even when the device cannot be reached: it is of no use to anyone but the device.
 */
export async function endSession(device: DeviceSetup, profile: DeviceProfile, store: SecretStore): Promise<boolean> {
  const [{ parseSession }, { sessionAuth }, { sessionAccount }] = await Promise.all([
    import('../api/session.js'),
    import('./credentials.js'),
    import('../config/secrets.js'),
  ]);
  const saved = parseSession(await store.get(sessionAccount(profile.name)));
  let ended = false;
  if (saved) {
    const target = endpointOf(mergeSettings(device.settings, profile), profile.host);
    const session = await sessionAuth(device, {
      username: profile.username ?? '',
      password: async () => null,
      state: saved,
      acceptDisclaimer: async () => false,
    });
    const client = await newClient(device, target, await tlsOptions(device, target), session);
    try {
      ended = await session.logout(client);
    } catch (err) {
      device.warn(
        `the session could not be ended on ${profile.host} (${(err as Error).message}); ` +
          `the saved session is deleted anyway`,
      );
    } finally {
      await client.close();
    }
  }
  await store.delete(sessionAccount(profile.name));
  return ended;
}
