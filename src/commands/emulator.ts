import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePrivateFile } from '../files.js';
import { displayFingerprint } from '../api/fingerprint.js';
import type { Context } from '../run/context.js';
import type { EmulatorOptions, RunningEmulator } from '../emulator/index.js';
import type { Catalogue } from '../catalogue/provider.js';
import type { DeviceRelease } from '../catalogue/device-schema.js';
import type { Started } from '../output/index.js';
import { readInputFile } from '../config/files.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import { parseYaml } from '../request/input.js';

export interface EmulatorFlags {
  port?: string;
  tls?: boolean;
  state?: string;
  seed?: 'demo' | 'empty';
  vdoms?: string;
  config?: string;
  schema?: string;
  serial?: string;
  hostname?: string;
}

const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);

/** What `--config FILE` may set, in the kebab-case of config.yaml, and the EmulatorOptions name of each. */
const CONFIG_KEYS: Record<string, keyof EmulatorOptions> = {
  admins: 'admins',
  tokens: 'tokens',
  'max-failed-logins': 'maxFailedLogins',
  'block-seconds': 'blockSeconds',
  'session-ttl-seconds': 'sessionTtlSeconds',
  'max-body-bytes': 'maxBodyBytes',
  disclaimer: 'disclaimer',
  hostname: 'hostname',
  release: 'release',
};
const ADMIN_KEYS = ['username', 'password', 'groups', 'vdoms', 'two-factor-code', 'must-change-password', 'locked-out'];
const TOKEN_KEYS = ['token', 'groups', 'vdoms'];

const camel = (key: string) => key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function entries(
  file: string,
  section: string,
  value: unknown,
  allowed: string[],
  required: string,
): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new UsageError(`${file}: '${section}' must be a list`);
  return value.map((entry: unknown, i) => {
    if (!entry || typeof entry !== 'object' || typeof (entry as Record<string, unknown>)[required] !== 'string') {
      throw new UsageError(`${file}: ${section}[${i}] needs a '${required}'`);
    }
    const unknown = Object.keys(entry).filter((k) => !allowed.includes(k));
    if (unknown.length)
      throw new UsageError(
        `${file}: ${section}[${i}] has unknown field '${unknown[0]}'`,
        `allowed: ${allowed.join(', ')}`,
      );
    return Object.fromEntries(Object.entries(entry).map(([k, v]) => [camel(k), v]));
  });
}

/**
 * `--schema FILE`: the whole-tree schema answer of a device saved untouched (`cmdb schema --all --raw`):
 * the tables the emulator serves, and the release and serial number it reports.
 */
async function readSchema(file: string): Promise<{ catalogue: Catalogue; release: DeviceRelease }> {
  const text = await readInputFile(file, 'the saved schema');
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${file} is not JSON: ${(err as Error).message}`,
      "save it with 'cmdb schema --all --raw > FILE'",
    );
  }
  const [{ treeEntries, releaseOf }, { DeviceCatalogue }] = await Promise.all([
    import('../catalogue/device-schema.js'),
    import('../catalogue/provider.js'),
  ]);
  const entries = treeEntries(answer);
  if (!entries.length)
    throw new UsageError(
      `${file} holds no table schema`,
      "give the whole-tree answer saved with 'cmdb schema --all --raw > FILE'",
    );
  const release = releaseOf(answer);
  return { catalogue: new DeviceCatalogue(release, entries), release };
}

/** `--config FILE` (YAML or JSON): administrators, API tokens with access profiles, and the device's limits. */
async function readConfig(file: string): Promise<Partial<EmulatorOptions>> {
  const doc = await parseYaml(await readInputFile(file, 'the emulator configuration'), file);
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`${file} must hold a mapping`);
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    const name = CONFIG_KEYS[key];
    if (!name)
      throw new UsageError(`${file}: unknown setting '${key}'`, `settings: ${Object.keys(CONFIG_KEYS).join(', ')}`);
    if (key === 'admins') options[name] = entries(file, key, value, ADMIN_KEYS, 'username');
    else if (key === 'tokens') options[name] = entries(file, key, value, TOKEN_KEYS, 'token');
    else if (
      key === 'disclaimer'
        ? typeof value !== 'boolean'
        : key === 'hostname' || key === 'release'
          ? typeof value !== 'string'
          : !(Number.isInteger(value) && (value as number) > 0)
    ) {
      throw new UsageError(`${file}: invalid value for '${key}': ${JSON.stringify(value)}`);
    } else options[name] = value;
  }
  return options as Partial<EmulatorOptions>;
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Until SIGINT or SIGTERM, which stop the emulator (exit 0) instead of interrupting the run. */
function waitForSignal(ctx: Context): Promise<void> {
  const signals = ctx.signals.interruptible();
  return new Promise((resolve) => {
    signals.signal.addEventListener('abort', () => {
      signals.release();
      resolve();
    });
  });
}

/** The start line: the JSON line for scripts; for people, the settings and how to use them from another shell. */
function started(
  emulator: RunningEmulator,
  caFile: string | null,
  state: string | undefined,
  release: string,
): Started {
  const line = emulator.startLine();
  const exports = [
    `CMDB_HOST=${shellQuote(line.url)}`,
    `CMDB_TOKEN=${shellQuote(line.token)}`,
    ...(caFile ? [`CMDB_CA_FILE=${shellQuote(caFile)}`] : []),
  ];
  const settings: [string, string][] = [
    ['url', line.url],
    ['vdoms', line.vdoms.join(', ')],
    ['API token', line.token],
    ['username', line.username],
    ['password', line.password],
    ...(line.fingerprint ? [['fingerprint', displayFingerprint(line.fingerprint)] as [string, string]] : []),
    ...(caFile ? [['certificate', caFile] as [string, string]] : []),
    ...(state ? [['state file', state] as [string, string]] : []),
  ];
  return {
    kind: 'started',
    object: { ...line },
    title: `cmdb emulator: an emulated device (release ${release}) is listening.`,
    settings,
    use: { how: 'Use it from another shell:', commands: [`export ${exports.join(' ')}`] },
    status: 'Serving until Ctrl-C (SIGINT) or SIGTERM.',
  };
}

/** `--port`, or undefined: the state file's port (when there is one), else a free one. */
function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new UsageError(`invalid --port '${raw}'`, 'give a port from 0 to 65535 (0 picks a free one)');
  return Number(raw);
}

/**
 * `cmdb emulator`: starts the emulated device, prints its start line (exactly one compact JSON line
 * with `-o json`, for scripts), serves until SIGINT/SIGTERM, then closes.
 */
export async function run(ctx: Context, _args: object, flags: EmulatorFlags): Promise<number> {
  if (flags.serial !== undefined && !/^[A-Za-z0-9-]{1,32}$/.test(flags.serial))
    throw new UsageError(`invalid --serial '${flags.serial}'`, 'give letters and digits, as FGVM01TM00000001');
  if (flags.hostname !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,34}$/.test(flags.hostname))
    throw new UsageError(
      `invalid --hostname '${flags.hostname}'`,
      'give letters, digits, _ . - (at most 35 characters)',
    );
  const configured = flags.config ? await readConfig(flags.config) : {};
  const schema = flags.schema ? await readSchema(flags.schema) : undefined;
  const options: EmulatorOptions = {
    ...configured,
    // Only the flag: CMDB_HOST names a device to talk to, not where to listen.
    host: ctx.settings.flags.host ?? '127.0.0.1',
    port: parsePort(flags.port),
    tls: !!flags.tls,
    stateFile: flags.state,
    seed: flags.seed,
    vdoms: flags.vdoms
      ?.split(',')
      .map((v) => v.trim())
      .filter(Boolean),
    recordRequests: false,
    ...schema,
    // Each emulator its own device: by default both follow from the port (a saved schema: its serial),
    // so `auth status -d 'fw*'` tells them apart.
    serial: flags.serial ?? schema?.release.serial ?? ((port) => `FGVMEMU${String(port).padStart(9, '0')}`),
    hostname: flags.hostname ?? configured.hostname ?? ((port) => `cmdb-emulator-${port}`),
  };
  const { startEmulator } = await import('../emulator/index.js');
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = `cannot start the emulator: ${error instanceof Error ? error.message : String(error)}`;
    if (code === 'EVDOMNAME')
      throw new UsageError(
        message,
        'VDOM names are letters, digits, _ . - (at most 31 characters), as cmdb --vdom accepts them',
      );
    if (code === 'ESTATEFILE')
      throw new UsageError(message, 'give another --state file, or remove this one to start from the seed');
    if (code && LISTEN_ERRORS.has(code)) {
      const kept = flags.port === undefined && flags.state ? ` (the port kept in ${flags.state})` : '';
      throw new UsageError(`${message}${kept}`, 'choose another --port or --host');
    }
    throw new CmdbError(message, EXIT.INTERNAL, flags.state ? 'check the --state file' : null);
  }
  const stopped = waitForSignal(ctx);
  // The certificate in a file, for CMDB_CA_FILE (removed when the emulator stops).
  const caFile = emulator.certPem ? join(tmpdir(), `cmdb-emulator-${new URL(emulator.url).port}.pem`) : null;
  if (caFile) writePrivateFile(caFile, emulator.certPem!, { durable: false });
  await ctx.out.print(started(emulator, caFile, flags.state, options.catalogue?.release ?? '6.4.14'));
  await stopped;
  await emulator.close();
  if (caFile) rmSync(caFile, { force: true });
  return 0;
}
