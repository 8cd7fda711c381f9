// Every global option and CMDB_* variable, once: its flag, its variable, its default and its parser,
// and the run's settings computed from them once (resolveSettings). Precedence everywhere: flag, then
// environment, then the device profile (merged in src/device/), then the default. No other module
// reads process.env or a CMDB_* variable (a test greps the compiled tree for it). Below config/ and
// device/: it imports only the api library's address rules, the errors and the format names.
import { isUsableToken } from './api/auth.js';
import { AddressError, normalizeBaseUrl, prefixProblem } from './api/url.js';
import { UsageError } from './errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from './grammar/types.js';

/** Global options after commander parsing. */
export interface GlobalOptions {
  device?: string;
  host?: string;
  vdom?: string;
  output?: string;
  raw?: boolean;
  caFile?: string;
  insecure?: boolean;
  timeout?: string;
  verbose?: boolean;
  color?: boolean;
  demo?: boolean;
  force?: boolean;
  parallel?: string;
  /** The write commands' --dry-run and --yes: the Context records writes instead of sending them, or asks nothing. */
  dryRun?: boolean;
  yes?: boolean;
}

/** One global option: commander's flags and help, the variable that stands in for the flag, what its value is. */
export interface GlobalOption {
  name: keyof GlobalOptions;
  flags: string;
  description: string;
  env?: string;
  /** For Tab completion (src/grammar/types.ts ValueKind). */
  kind?: 'none' | 'device' | 'vdom' | 'output' | 'file';
}

/** The global options in the order `--help` shows them. */
export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
  {
    name: 'device',
    flags: '-d, --device <list>',
    env: 'CMDB_DEVICE',
    kind: 'device',
    description: "saved device profile(s): a name, a,b or patterns like 'branch-*' (env CMDB_DEVICE)",
  },
  {
    name: 'parallel',
    flags: '--parallel <n>',
    kind: 'none',
    description: 'devices worked on at once when -d names several (default 10)',
  },
  {
    name: 'host',
    flags: '--host <url>',
    env: 'CMDB_HOST',
    kind: 'none',
    description: 'device address, https://fw.example:8443 (env CMDB_HOST)',
  },
  {
    name: 'vdom',
    flags: '--vdom <list>',
    env: 'CMDB_VDOM',
    kind: 'vdom',
    description: "VDOM: root, a,b or '*' (env CMDB_VDOM)",
  },
  {
    name: 'output',
    flags: '-o, --output <format>',
    env: 'CMDB_OUTPUT',
    kind: 'output',
    description: 'table, json, yaml, ndjson or csv (env CMDB_OUTPUT)',
  },
  { name: 'raw', flags: '--raw', description: "print the device's JSON response untouched" },
  {
    name: 'caFile',
    flags: '--ca-file <pem>',
    env: 'CMDB_CA_FILE',
    kind: 'file',
    description: 'trust this CA bundle for TLS (env CMDB_CA_FILE)',
  },
  {
    name: 'insecure',
    flags: '--insecure',
    env: 'CMDB_INSECURE',
    description: 'do not verify TLS (env CMDB_INSECURE=1)',
  },
  {
    name: 'timeout',
    flags: '--timeout <seconds>',
    env: 'CMDB_TIMEOUT',
    kind: 'none',
    description: 'per-request timeout, default 30 (env CMDB_TIMEOUT)',
  },
  {
    name: 'verbose',
    flags: '-v, --verbose',
    env: 'CMDB_DEBUG',
    description: 'print each HTTP exchange on stderr, secrets redacted (env CMDB_DEBUG=1)',
  },
  // NO_COLOR (and FORCE_COLOR) are read by the output layer's colour decision, with the rest of the terminal.
  { name: 'color', flags: '--no-color', description: 'no ANSI colour (env NO_COLOR)' },
  {
    name: 'demo',
    flags: '--demo',
    env: 'CMDB_DEMO',
    description: 'run against the built-in emulated device (env CMDB_DEMO=1)',
  },
  { name: 'force', flags: '--force', description: 'send an operation the catalogue does not list for the table' },
];

/** The variables that have no flag (secrets never do: flags leak into shell history and `ps`). */
export const VARIABLES = {
  token: 'CMDB_TOKEN',
  username: 'CMDB_USERNAME',
  password: 'CMDB_PASSWORD',
  acceptDisclaimer: 'CMDB_ACCEPT_DISCLAIMER',
  apiPrefix: 'CMDB_API_PREFIX',
  configDir: 'CMDB_CONFIG_DIR',
  keychainTimeout: 'CMDB_KEYCHAIN_TIMEOUT',
  completionTimeout: 'CMDB_COMPLETION_TIMEOUT',
  lockTimeout: 'CMDB_LOCK_TIMEOUT',
  xdgConfig: 'XDG_CONFIG_HOME',
  xdgState: 'XDG_STATE_HOME',
  xdgCache: 'XDG_CACHE_HOME',
  home: 'HOME',
  visual: 'VISUAL',
  editor: 'EDITOR',
} as const;

export type Variable = keyof typeof VARIABLES;

type CmdbVariable = { [K in Variable]: (typeof VARIABLES)[K] extends `CMDB_${string}` ? K : never }[Variable];

/** What each CMDB_* variable without a flag does, for help and the man page (a new one must say). */
const VARIABLE_HELP: Record<CmdbVariable, string> = {
  token:
    'API token; never a flag (flags leak into shell history and ps). With CMDB_HOST: no login, no profile, ' +
    'the usual way for CI',
  username:
    'administrator for a session login without a saved profile: log in, do the work, log out (with CMDB_PASSWORD)',
  password: 'the password for CMDB_USERNAME',
  acceptDisclaimer: "1: accept the device's login banner for a CMDB_USERNAME login",
  apiPrefix: 'API prefix of the device (default /api/v2/cmdb)',
  configDir: 'where device profiles live (default $XDG_CONFIG_HOME/cmdb, ~/.config/cmdb)',
  keychainTimeout: 'seconds a keychain call may take before it counts as unreachable (default 3)',
  completionTimeout: "seconds Tab completion waits for the device's keys (default 1.5)",
  lockTimeout:
    'seconds to wait for another cmdb process holding a shared file or a device login (default 60; ' +
    'a login: 3 timeouts + 15); then exit 8',
};

/** Every CMDB_* variable (and the colour ones), for help and the man page: the options' first, then the rest. */
export const ENVIRONMENT: readonly { name: string; description: string }[] = [
  ...GLOBAL_OPTIONS.filter((o) => o.env).map((o) => ({
    name: `${o.env}${o.env === 'CMDB_INSECURE' || o.env === 'CMDB_DEBUG' || o.env === 'CMDB_DEMO' ? '=1' : ''}`,
    description: `as ${o.flags.split(', ').pop()!.split(' ')[0]}: ${o.description.replace(/ \(env [^)]*\)$/, '')}`,
  })),
  ...(Object.keys(VARIABLE_HELP) as CmdbVariable[]).map((key) => ({
    name: VARIABLES[key],
    description: VARIABLE_HELP[key],
  })),
  { name: 'NO_COLOR', description: 'no colour (as --no-color); FORCE_COLOR forces it on, even into a pipe' },
];

/** The process environment: the one place the CLI takes it from (tests pass their own). */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * The environment for another saved device of the same run (`diff --from`): without the variables that
 * choose a device or carry a credential, so the other device uses its own profile and credential.
 */
export function otherDeviceEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of ['device', 'host', 'demo'] as const) delete out[GLOBAL_OPTIONS.find((o) => o.name === name)!.env!];
  for (const name of ['token', 'username', 'password', 'apiPrefix'] as const) delete out[VARIABLES[name]];
  return out;
}

/** A variable's value; set-but-empty counts as unset. */
export function variable(env: NodeJS.ProcessEnv, name: Variable): string | undefined {
  return env[VARIABLES[name]] || undefined;
}

export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

const VDOM_NAME = /^[A-Za-z0-9_.-]{1,31}$/;

/** Parses `root`, `a,b` or `*` into the list sent as `vdom=`. */
export function parseVdoms(value: string): string[] {
  const vdoms = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!vdoms.length)
    throw new UsageError(
      `invalid --vdom '${value}'`,
      "give a VDOM name, a comma-separated list (root,dmz) or '*' for all",
    );
  if (vdoms.includes('*')) {
    if (vdoms.length > 1)
      throw new UsageError(`invalid --vdom '${value}': '*' stands alone`, "use '*' for all VDOMs, or list them");
    return ['*'];
  }
  for (const v of vdoms) {
    if (!VDOM_NAME.test(v))
      throw new UsageError(`invalid VDOM name '${v}'`, 'VDOM names are letters, digits, _ . - (at most 31 characters)');
  }
  return vdoms;
}

export function parseFormat(value: string): OutputFormat {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown output format '${value}'`, `use one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return value as OutputFormat;
}

/** The longest timeout a timer can hold (2^31 - 1 ms), in whole seconds: a little under 25 days. */
export const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** Seconds as given to --timeout, in milliseconds. */
export function parseTimeout(raw: string): number {
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(
      `invalid timeout '${raw}'`,
      'give a number of seconds greater than 0, for example --timeout 10',
    );
  if (seconds > MAX_TIMEOUT_SECONDS)
    throw new UsageError(
      `invalid timeout '${raw}': at most ${MAX_TIMEOUT_SECONDS} seconds`,
      'give a number of seconds, for example --timeout 10',
    );
  return Math.round(seconds * 1000);
}

/**
 * A device address from --host, CMDB_HOST or `cmdb login`, normalised (`fw` → `https://fw`); a usage
 * error when it cannot be one. A password written into it is never shown back.
 */
export function parseHost(raw: string, what = '--host'): string {
  try {
    return normalizeBaseUrl(raw);
  } catch (err) {
    if (!(err instanceof AddressError)) throw err;
    const example = 'give an address like https://fw.example:8443 (IPv6 in brackets)';
    switch (err.problem) {
      case 'empty':
        throw new UsageError(`${what} is empty`, example);
      case 'credentials':
        throw new UsageError(
          `${what} '${err.address}' holds a user name or password`,
          "credentials never go in the address: log in with 'cmdb login --username <name>' (or " +
            '--token-stdin), or set CMDB_TOKEN, or CMDB_USERNAME and CMDB_PASSWORD',
        );
      case 'no-host':
        throw new UsageError(`${what} '${err.address}' names no host`, example);
      case 'scheme':
        throw new UsageError(`${what} '${err.address}' is not an https:// or http:// address`, example);
      default:
        throw new UsageError(`invalid device address '${err.address}'`, example);
    }
  }
}

/** An API prefix as sent before every table path: a path of printable ASCII, without ? or #. */
export function parsePrefix(prefix: string, what: string): string {
  const problem = prefixProblem(prefix);
  if (!problem) return prefix;
  const shown = JSON.stringify(prefix);
  if (problem === 'characters')
    throw new UsageError(
      `the API prefix ${shown} (${what}) holds spaces, control or non-ASCII characters`,
      'give a path such as /api/v2/cmdb',
    );
  if (problem === 'query')
    throw new UsageError(
      `the API prefix ${shown} (${what}) holds '?' or '#'`,
      'give a path only, such as /api/v2/cmdb: query parameters have options of their own',
    );
  throw new UsageError(`invalid API prefix ${shown} (${what})`, 'give a path such as /api/v2/cmdb');
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_PARALLEL = 10;

/** The credential the environment gives: CMDB_TOKEN wins over CMDB_USERNAME/CMDB_PASSWORD. */
export type EnvironmentCredential =
  | { kind: 'token'; token: string }
  | { kind: 'session'; username: string; password: string | undefined };

/**
 * The settings of one run, computed once from the global options' flags and their variables (flag,
 * else variable; set-but-empty is unset) and frozen. A value that is not the device profile's to give
 * is final here; the profile's (VDOM, timeout, CA file, API prefix) is merged by the device layer.
 */
export interface Settings {
  /** The flags as given, without their variables (login saves the flags it was given, and only those). */
  readonly flags: Readonly<GlobalOptions>;
  /** -d / CMDB_DEVICE: a profile name, a list or patterns. */
  readonly device: string | undefined;
  /** --host / CMDB_HOST normalised (`fw` and `fw:8443` mean https://). */
  readonly host: string | undefined;
  /** --vdom / CMDB_VDOM parsed; undefined: the profile's, else the device's management VDOM. */
  readonly vdoms: readonly string[] | undefined;
  /** --vdom / CMDB_VDOM as given (for caches keyed by it). */
  readonly vdomText: string | undefined;
  /** -o / CMDB_OUTPUT, checked; undefined when neither names one. */
  readonly format: OutputFormat | undefined;
  /** How the format was asked for, in the user's words: `-o json` or `CMDB_OUTPUT=json`. */
  readonly formatAsked: string | undefined;
  /** Errors go out as one JSON line: json, yaml or ndjson asked for (CLI.md). */
  readonly machineErrors: boolean;
  readonly raw: boolean;
  /** --no-color (NO_COLOR and FORCE_COLOR are weighed by the output layer). */
  readonly noColor: boolean;
  readonly verbose: boolean;
  readonly insecure: boolean;
  readonly demo: boolean;
  readonly force: boolean;
  /** A write command's --dry-run: writes are shown, not sent. */
  readonly dryRun: boolean;
  /** A write command's --yes: no question before a change. */
  readonly yes: boolean;
  /** --parallel: how many devices are worked on at once. */
  readonly parallel: number;
  /** --ca-file / CMDB_CA_FILE; undefined: the profile's. */
  readonly caFile: string | undefined;
  /** --timeout / CMDB_TIMEOUT in milliseconds; undefined: the profile's, else 30 s. */
  readonly timeoutMs: number | undefined;
  /** CMDB_API_PREFIX as given (the device layer checks it when it is used); undefined: the profile's. */
  readonly apiPrefix: string | undefined;
  /** CMDB_TOKEN, or CMDB_USERNAME and CMDB_PASSWORD, unchecked (see environmentCredential()). */
  readonly credential: EnvironmentCredential | null;
  /** CMDB_ACCEPT_DISCLAIMER=1. */
  readonly acceptDisclaimer: boolean;
}

/** The one rule: errors go out as one JSON line when the output is for a program (json, yaml, ndjson; CLI.md). */
export function machineReadable(format: string | undefined): boolean {
  return format === 'json' || format === 'yaml' || format === 'ndjson';
}

/** -o / CMDB_OUTPUT as text, and whether it came from the flag. */
function outputText(flags: GlobalOptions, env: NodeJS.ProcessEnv): { value?: string; flag: boolean } {
  if (flags.output !== undefined) return { value: flags.output, flag: true };
  return { value: env.CMDB_OUTPUT || undefined, flag: false };
}

/** --parallel: a whole number of devices from 1 to 1000 (default 10). */
function parseParallel(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PARALLEL;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1 || n > 1000) {
    throw new UsageError(
      `invalid --parallel '${raw}'`,
      'give a whole number of devices from 1 to 1000, for example --parallel 20',
    );
  }
  return n;
}

/**
 * The run's settings from its global options and the environment, checked up front (a usage error
 * names the first bad one: format, timeout, parallel, host, VDOM), so nothing is sent after a bad one.
 */
export function resolveSettings(flags: GlobalOptions, env: NodeJS.ProcessEnv): Settings {
  const text = (name: 'device' | 'host' | 'vdom' | 'caFile' | 'timeout'): string | undefined => {
    const flag = flags[name];
    if (flag !== undefined) return flag;
    const option = GLOBAL_OPTIONS.find((o) => o.name === name)!;
    return option.env ? env[option.env] || undefined : undefined;
  };
  const on = (name: 'insecure' | 'verbose' | 'demo'): boolean =>
    !!flags[name] || truthy(env[GLOBAL_OPTIONS.find((o) => o.name === name)!.env!]);
  const output = outputText(flags, env);
  const format = output.value === undefined ? undefined : parseFormat(output.value);
  const timeout = text('timeout');
  const timeoutMs = timeout === undefined ? undefined : parseTimeout(timeout);
  const parallel = parseParallel(flags.parallel);
  const hostText = text('host');
  const host =
    hostText === undefined ? undefined : parseHost(hostText, flags.host !== undefined ? '--host' : 'CMDB_HOST');
  const vdomText = text('vdom');
  const vdoms = vdomText === undefined ? undefined : Object.freeze(parseVdoms(vdomText));
  const token = variable(env, 'token');
  const username = variable(env, 'username');
  return Object.freeze({
    flags: Object.freeze({ ...flags }),
    device: text('device'),
    host,
    vdoms,
    vdomText,
    format,
    formatAsked:
      output.value === undefined ? undefined : output.flag ? `-o ${output.value}` : `CMDB_OUTPUT=${output.value}`,
    machineErrors: machineReadable(format),
    raw: !!flags.raw,
    noColor: flags.color === false,
    verbose: on('verbose'),
    insecure: on('insecure'),
    demo: on('demo'),
    force: !!flags.force,
    dryRun: !!flags.dryRun,
    yes: !!flags.yes,
    parallel,
    caFile: text('caFile'),
    timeoutMs,
    apiPrefix: variable(env, 'apiPrefix'),
    credential: token
      ? { kind: 'token', token }
      : username
        ? { kind: 'session', username, password: env[VARIABLES.password] }
        : null,
    acceptDisclaimer: truthy(env[VARIABLES.acceptDisclaimer]),
  } satisfies Settings);
}

/** The environment's credential, checked: a token that no device could have issued is a usage error. */
export function environmentCredential(settings: Settings): EnvironmentCredential | null {
  const credential = settings.credential;
  if (credential?.kind === 'token' && !isUsableToken(credential.token)) {
    throw new UsageError(
      `${VARIABLES.token} holds spaces, control or non-ASCII characters, which no API token has`,
      'set it to the token alone, for example CMDB_TOKEN="$(cat token.txt)"',
    );
  }
  return credential;
}

/** CMDB_API_PREFIX checked, else the profile's (login's --prefix is a flag of its own, given as `flag`). */
export function apiPrefixOf(settings: Settings, profilePrefix?: string, flag?: string): string | undefined {
  if (flag !== undefined) return parsePrefix(flag, '--prefix');
  if (settings.apiPrefix !== undefined) return parsePrefix(settings.apiPrefix, VARIABLES.apiPrefix);
  return profilePrefix;
}

/** Per-request timeout in milliseconds: flag, CMDB_TIMEOUT, the profile's, then 30 s. */
export function timeoutOf(settings: Settings, profileSeconds?: number): number {
  return settings.timeoutMs ?? (profileSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
}

/**
 * From the global options as the command line reader understood them (src/grammar/argv.ts) and the
 * environment alone, before commander has read the line (for errors raised while parsing, and a line
 * commander refuses): whether errors are machine-readable, --verbose and --no-color. Never throws.
 */
export function earlySettings(
  flags: GlobalOptions,
  env: NodeJS.ProcessEnv,
): { machineErrors: boolean; verbose: boolean; noColor: boolean } {
  return {
    machineErrors: machineReadable(outputText(flags, env).value),
    verbose: !!flags.verbose || truthy(env[GLOBAL_OPTIONS.find((o) => o.name === 'verbose')!.env!]),
    noColor: flags.color === false,
  };
}

/** CMDB_KEYCHAIN_TIMEOUT (seconds), default 3: a hung D-Bus must not hang the tool. */
export function keychainTimeoutMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env[VARIABLES.keychainTimeout]);
  return Math.round((Number.isFinite(seconds) && seconds > 0 ? seconds : 3) * 1000);
}

/**
 * CMDB_LOCK_TIMEOUT (seconds): how long to wait for another cmdb process holding a lock (config.yaml,
 * credentials.yaml, a device's login); undefined when unset or not a positive number (each lock's default).
 */
export function lockTimeoutMs(env: NodeJS.ProcessEnv): number | undefined {
  const seconds = Number(variable(env, 'lockTimeout'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : undefined;
}

/** CMDB_COMPLETION_TIMEOUT (seconds), default 1.5: a slow device means no keys, not a frozen shell. */
export function completionTimeout(env: NodeJS.ProcessEnv): string {
  return variable(env, 'completionTimeout') ?? '1.5';
}
