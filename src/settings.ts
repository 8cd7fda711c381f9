// Every global option and CMDB_* variable as one record each (its flags, its variable, the profile
// setting it gives way to, its parser, its default and its help), from which the rest is derived:
// GlobalOptions (what commander hands over), Settings (the run's values, resolveSettings), the
// grammar a line is read against (src/completion/model.ts), the help, the man page and the reference
// (src/cli/help.ts). Precedence everywhere: flag, then environment, then the device profile (merged
// once by the device layer: src/device/settings.ts), then the default. No other module reads
// process.env or a CMDB_* variable (a test greps the compiled tree for it). Below config/ and device/:
// it imports only the api library's address rules, the errors and the grammar's value types.
import { isUsableToken } from './api/auth.js';
import { AddressError, normalizeBaseUrl, prefixProblem } from './api/url.js';
import { UsageError } from './errors.js';
import { OUTPUT_FORMATS, type OptionsOf, type OutputFormat, type ValueKind } from './grammar/types.js';

/** What a device profile gives the options that give way to it (src/config/profiles.ts DeviceProfile). */
export interface ProfileValues {
  host?: string;
  vdom?: string;
  /** Seconds. */
  timeout?: number;
  caFile?: string;
  prefix?: string;
}

/**
 * One global option or CMDB_* variable. A record with `flags` is a global option (commander, Tab and
 * help show it); one without is a variable only (secrets never have a flag: flags leak into shell
 * history and `ps`).
 */
export interface OptionRecord {
  /** Its key in GlobalOptions as commander names it (`--ca-file` → caFile, `--no-color` → color). */
  readonly name: string;
  /** Its key in Settings, when not `name` (`--timeout` → timeoutMs). */
  readonly setting?: string;
  /** commander's flags: `-o, --output <format>`; a flag without a value is on or off. */
  readonly flags?: string;
  /** The variable that stands in for the flag (`1`, `true`... for a flag without a value). */
  readonly env?: string;
  /** Its help: the flag's line in --help, or the variable's in the environment section. */
  readonly description: string;
  /** What its value is, for Tab completion. */
  readonly kind?: ValueKind;
  /** Its value from its text (the flag's, else the variable's); a usage error names `where` it came from. */
  readonly parse?: (text: string, where: string) => unknown;
  /** Its value when neither the flag nor the variable (nor the profile) gives one. */
  readonly default?: unknown;
  /** Its value from the device profile, which comes after the flag and the variable (the device layer merges it). */
  readonly fromProfile?: (profile: ProfileValues) => unknown;
}

/** The per-request timeout when no flag, variable or profile gives one. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** A global option: a record with flags. */
export type GlobalOption = OptionRecord & { readonly flags: string };
/** A variable without a flag. */
export type VariableOption = OptionRecord & { readonly env: string; readonly flags?: undefined };

/** The global options in the order `--help` shows them (as written: the types below are derived from it). */
const GLOBAL_OPTION_RECORDS = [
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
    parse: (text: string) => parseParallel(text),
    default: 10,
  },
  {
    name: 'host',
    flags: '--host <url>',
    env: 'CMDB_HOST',
    kind: 'none',
    description: 'device address, https://fw.example:8443 (env CMDB_HOST)',
    parse: (text: string, where: string) => parseHost(text, where),
    fromProfile: (profile: ProfileValues) => profile.host,
  },
  {
    name: 'vdom',
    setting: 'vdoms',
    flags: '--vdom <list>',
    env: 'CMDB_VDOM',
    kind: 'vdom',
    description: "VDOM: root, a,b or '*' (env CMDB_VDOM)",
    parse: (text: string): readonly string[] => Object.freeze(parseVdoms(text)),
    fromProfile: (profile: ProfileValues) =>
      profile.vdom === undefined ? undefined : Object.freeze(parseVdoms(profile.vdom)),
  },
  {
    name: 'output',
    setting: 'format',
    flags: '-o, --output <format>',
    env: 'CMDB_OUTPUT',
    kind: 'output',
    description: 'table, json, yaml, ndjson, csv; cli for list, get, export (env CMDB_OUTPUT)',
    parse: (text: string) => parseFormat(text),
  },
  { name: 'raw', flags: '--raw', description: "print the device's JSON response untouched" },
  {
    name: 'caFile',
    flags: '--ca-file <pem>',
    env: 'CMDB_CA_FILE',
    kind: 'file',
    description: 'trust this CA bundle for TLS (env CMDB_CA_FILE)',
    fromProfile: (profile: ProfileValues) => profile.caFile,
  },
  {
    name: 'insecure',
    flags: '--insecure',
    env: 'CMDB_INSECURE',
    description: 'do not verify TLS (env CMDB_INSECURE=1)',
  },
  {
    name: 'timeout',
    setting: 'timeoutMs',
    flags: '--timeout <seconds>',
    env: 'CMDB_TIMEOUT',
    kind: 'none',
    description: 'per-request timeout, default 30 (env CMDB_TIMEOUT)',
    parse: (text: string) => parseTimeout(text),
    fromProfile: (profile: ProfileValues) => (profile.timeout === undefined ? undefined : profile.timeout * 1000),
    default: DEFAULT_TIMEOUT_SECONDS * 1000,
  },
  {
    name: 'verbose',
    flags: '-v, --verbose',
    env: 'CMDB_DEBUG',
    description: 'print each HTTP exchange on stderr, secrets redacted (env CMDB_DEBUG=1)',
  },
  // NO_COLOR (and FORCE_COLOR) are read by the output layer's colour decision, with the rest of the terminal.
  { name: 'color', setting: 'noColor', flags: '--no-color', description: 'no ANSI colour (env NO_COLOR)' },
  {
    name: 'demo',
    flags: '--demo',
    env: 'CMDB_DEMO',
    description: 'run against the built-in emulated device (env CMDB_DEMO=1)',
  },
  {
    name: 'force',
    flags: '--force',
    description: 'send an operation the catalogue does not list for the table, or a table it does not know',
  },
] as const satisfies readonly GlobalOption[];

export const GLOBAL_OPTIONS: readonly GlobalOption[] = GLOBAL_OPTION_RECORDS;

/** How long a keychain call may take before it counts as unreachable: a hung D-Bus must not hang the tool. */
export const KEYCHAIN_TIMEOUT_MS = 3000;

/** Seconds from a variable, or undefined when it is unset or not a positive number. */
function seconds(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

/** The CMDB_* variables that have no flag, in the order help lists them after the options' own. */
const VARIABLE_RECORDS = [
  {
    name: 'token',
    env: 'CMDB_TOKEN',
    description:
      'API token; never a flag (flags leak into shell history and ps). With CMDB_HOST: no login, no profile, ' +
      'the usual way for CI',
  },
  {
    name: 'username',
    env: 'CMDB_USERNAME',
    description:
      'administrator for a session login without a saved profile: log in, do the work, log out (with CMDB_PASSWORD)',
  },
  { name: 'password', env: 'CMDB_PASSWORD', description: 'the password for CMDB_USERNAME' },
  {
    name: 'acceptDisclaimer',
    env: 'CMDB_ACCEPT_DISCLAIMER',
    description: "1: accept the device's login banner for a CMDB_USERNAME login",
    parse: (text: string) => truthy(text),
    default: false,
  },
  {
    name: 'apiPrefix',
    env: 'CMDB_API_PREFIX',
    description: 'API prefix of the device (default /api/v2/cmdb)',
    // Checked when it is used (parsePrefix): a run that talks to no device does not fail on it.
    fromProfile: (profile: ProfileValues) => profile.prefix,
  },
  {
    name: 'configDir',
    env: 'CMDB_CONFIG_DIR',
    description: 'where device profiles live (default $XDG_CONFIG_HOME/cmdb, ~/.config/cmdb)',
  },
  {
    name: 'keychainTimeout',
    setting: 'keychainTimeoutMs',
    env: 'CMDB_KEYCHAIN_TIMEOUT',
    description: 'seconds a keychain call may take before it counts as unreachable (default 3)',
    parse: (text: string) => seconds(text) ?? KEYCHAIN_TIMEOUT_MS,
    default: KEYCHAIN_TIMEOUT_MS,
  },
  {
    name: 'completionTimeout',
    env: 'CMDB_COMPLETION_TIMEOUT',
    description: "seconds Tab completion waits for the device's keys (default 1.5)",
    parse: (text: string) => text,
    default: '1.5',
  },
  {
    name: 'lockTimeout',
    setting: 'lockTimeoutMs',
    env: 'CMDB_LOCK_TIMEOUT',
    description:
      'seconds to wait for another cmdb process holding a shared file or a device login (default 60; ' +
      'a login: 3 timeouts + 15); then exit 8',
    // Unset or not a positive number: each lock's own wait.
    parse: (text: string) => seconds(text),
  },
] as const satisfies readonly VariableOption[];

export const VARIABLE_OPTIONS: readonly VariableOption[] = VARIABLE_RECORDS;

/** The variables besides the CMDB_* ones: where files go, and the editor. */
const OTHER_VARIABLES = {
  xdgConfig: 'XDG_CONFIG_HOME',
  xdgState: 'XDG_STATE_HOME',
  xdgCache: 'XDG_CACHE_HOME',
  home: 'HOME',
  visual: 'VISUAL',
  editor: 'EDITOR',
} as const;

/** Every variable without a flag by its name here: the CMDB_* ones of VARIABLE_OPTIONS and the others. */
export const VARIABLES = {
  ...(Object.fromEntries(VARIABLE_OPTIONS.map((o) => [o.name, o.env])) as {
    [O in (typeof VARIABLE_RECORDS)[number] as O['name']]: O['env'];
  }),
  ...OTHER_VARIABLES,
};

export type Variable = keyof typeof VARIABLES;

/** The global options as commander hands them over (--dry-run and --yes are the write commands' own). */
export type GlobalOptions = OptionsOf<typeof GLOBAL_OPTION_RECORDS>;

type SettingName<O> = O extends { readonly setting: infer S extends string }
  ? S
  : O extends { readonly name: infer N extends string }
    ? N
    : never;
/** A flag without a value is on or off; any other option's value is its parser's, else its text. */
type SettingValue<O> = O extends { readonly flags: string }
  ? O['flags'] extends `${string}<${string}>${string}`
    ? ParsedValue<O>
    : boolean
  : ParsedValue<O>;
type ParsedValue<O> =
  | (O extends { readonly parse: (text: string, where: string) => infer T } ? T : string)
  | (O extends { readonly default: unknown }
      ? O extends { readonly fromProfile: unknown }
        ? undefined
        : never
      : undefined);

/** The values of some option records, each under its setting's name (undefined: given by none). */
export type SettingsOf<T extends readonly OptionRecord[]> = {
  readonly [O in T[number] as SettingName<O>]: SettingValue<O>;
};

/** The credential the environment gives: CMDB_TOKEN wins over CMDB_USERNAME/CMDB_PASSWORD. */
export type EnvironmentCredential =
  | { kind: 'token'; token: string }
  | { kind: 'session'; username: string; password: string | undefined };

/**
 * The settings of one run, computed once from the global options' flags and their variables (flag,
 * else variable; set-but-empty is unset) and frozen: one value per record (SettingsOf), and what is
 * derived from them. A value the device profile may give (VDOM, timeout, CA file, API prefix, host)
 * is undefined here when neither the flag nor the variable gives it: the device layer merges the
 * profile's, then the default (src/device/settings.ts).
 */
export type Settings = Omit<
  SettingsOf<typeof GLOBAL_OPTION_RECORDS> & SettingsOf<typeof VARIABLE_RECORDS>,
  'token' | 'username' | 'password' | 'configDir'
> & {
  /** The flags as given, without their variables (login saves the flags it was given, and only those). */
  readonly flags: Readonly<GlobalOptions>;
  /** --vdom / CMDB_VDOM as given (for caches keyed by it). */
  readonly vdomText: string | undefined;
  /** How the format was asked for, in the user's words: `-o json` or `CMDB_OUTPUT=json`. */
  readonly formatAsked: string | undefined;
  /** Errors go out as one JSON line: json, yaml or ndjson asked for (CLI.md). */
  readonly machineErrors: boolean;
  /** CMDB_TOKEN, or CMDB_USERNAME and CMDB_PASSWORD, unchecked (see environmentCredential()). */
  readonly credential: EnvironmentCredential | null;
};

/** Every CMDB_* variable (and the colour ones), for help and the man page: the options' first, then the rest. */
export function environmentHelp(
  options: readonly GlobalOption[] = GLOBAL_OPTIONS,
  variables: readonly VariableOption[] = VARIABLE_OPTIONS,
): { name: string; description: string }[] {
  return [
    ...options
      .filter((o) => o.env)
      .map((o) => ({
        name: `${o.env}${takesValue(o) ? '' : '=1'}`,
        description: `as ${o.flags.split(', ').pop()!.split(' ')[0]}: ${o.description.replace(/ \(env [^)]*\)$/, '')}`,
      })),
    ...variables.map((o) => ({ name: o.env, description: o.description })),
    { name: 'NO_COLOR', description: 'no colour (as --no-color); FORCE_COLOR forces it on, even into a pipe' },
  ];
}

/** Whether an option takes a value (`--timeout <seconds>`), or is on or off (`--insecure`); a variable takes one. */
function takesValue(o: OptionRecord): boolean {
  return o.flags === undefined || /[<[]/.test(o.flags);
}

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
  for (const name of ['device', 'host', 'demo']) delete out[GLOBAL_OPTIONS.find((o) => o.name === name)!.env!];
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

/** The one rule: errors go out as one JSON line when the output is for a program (json, yaml, ndjson; CLI.md). */
export function machineReadable(format: string | undefined): boolean {
  return format === 'json' || format === 'yaml' || format === 'ndjson';
}

/** -o / CMDB_OUTPUT as text, and whether it came from the flag. */
function outputText(flags: GlobalOptions, env: NodeJS.ProcessEnv): { value?: string; flag: boolean } {
  if (flags.output !== undefined) return { value: flags.output, flag: true };
  return { value: env.CMDB_OUTPUT || undefined, flag: false };
}

/** --parallel: a whole number of devices from 1 to 1000. */
function parseParallel(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1 || n > 1000) {
    throw new UsageError(
      `invalid --parallel '${raw}'`,
      'give a whole number of devices from 1 to 1000, for example --parallel 20',
    );
  }
  return n;
}

/** Where an option's text came from, as a message names it: its long flag, else its variable. */
const longFlag = (o: OptionRecord) => o.flags!.split(/[ ,]+/).find((w) => w.startsWith('--'))!;

/**
 * One record's value from the flags and the environment: a flag without a value is on when given
 * (`--no-x`: when given as false) or when its variable is set to anything but 0 or false; any other
 * takes the flag's text, else the variable's (set-but-empty is unset), through its parser; else its
 * default, unless the device profile comes before it (then undefined: the device layer merges it).
 */
function settingOf(o: OptionRecord, flags: Record<string, unknown>, env: NodeJS.ProcessEnv): unknown {
  const flag = flags[o.name];
  if (!takesValue(o)) return (o.flags!.includes('--no-') ? flag === false : !!flag) || truthy(o.env && env[o.env]);
  const text = textOf(o, flags, env);
  if (text !== undefined) return o.parse ? o.parse(text, flag !== undefined ? longFlag(o) : o.env!) : text;
  return o.fromProfile ? undefined : o.default;
}

/** An option's text: the flag's, else its variable's (set-but-empty is unset). */
function textOf(o: OptionRecord, flags: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  const flag = flags[o.name];
  return flag !== undefined ? String(flag) : (o.env && env[o.env]) || undefined;
}

/**
 * The run's settings from its global options and the environment, checked up front (a usage error
 * names the first bad one: the format first, so that the error itself is in the form asked for, then
 * in the order help lists them), so nothing is sent after a bad one. `options`: the records (all of
 * them but in tests).
 */
export function resolveSettings(
  flags: GlobalOptions,
  env: NodeJS.ProcessEnv,
  options: readonly GlobalOption[] = GLOBAL_OPTIONS,
  variables: readonly VariableOption[] = VARIABLE_OPTIONS,
): Settings {
  const given = flags as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const records = [...options, ...variables];
  for (const o of [...records.filter((o) => o.name === 'output'), ...records.filter((o) => o.name !== 'output')])
    values[o.setting ?? o.name] = settingOf(o, given, env);
  const output = outputText(flags, env);
  const token = variable(env, 'token');
  const username = variable(env, 'username');
  const { token: _t, username: _u, password: _p, configDir: _c, ...settings } = values;
  return Object.freeze({
    ...settings,
    flags: Object.freeze({ ...flags }),
    vdomText: textOf(options.find((o) => o.name === 'vdom')!, given, env),
    formatAsked:
      output.value === undefined ? undefined : output.flag ? `-o ${output.value}` : `CMDB_OUTPUT=${output.value}`,
    machineErrors: machineReadable(values.format as string | undefined),
    credential: token
      ? { kind: 'token', token }
      : username
        ? { kind: 'session', username, password: env[VARIABLES.password] }
        : null,
  }) as Settings;
}

/** One variable's setting through its record (parser, default), alone: what Tab needs before a line's settings. */
export function variableSetting<N extends keyof VariableSettings>(
  env: NodeJS.ProcessEnv,
  name: N,
): VariableSettings[N] {
  return settingOf(VARIABLE_OPTIONS.find((o) => (o.setting ?? o.name) === name)!, {}, env) as VariableSettings[N];
}

type VariableSettings = SettingsOf<typeof VARIABLE_RECORDS>;

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
    verbose: settingOf(GLOBAL_OPTIONS.find((o) => o.name === 'verbose')!, flags, env) as boolean,
    noColor: flags.color === false,
  };
}
