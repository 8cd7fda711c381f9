// The value types every layer shares about the command line: what a value is (and so where Tab finds
// its candidates), which tables a command accepts, which output formats it prints, where it shows in
// help, how an option is declared, and the words some values are chosen from (output formats, shells,
// SPEC.md's operation codes). At the bottom of the floors: it imports nothing.

/** Operation codes of SPEC.md: L list, C create, R read, U update, D delete, G get singleton, P put singleton. */
export type OperationCode = 'L' | 'C' | 'R' | 'U' | 'D' | 'G' | 'P';

export type OutputFormat = 'table' | 'json' | 'yaml' | 'ndjson' | 'csv' | 'cli';

/** Every output format, in the order help lists them. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = Object.freeze([
  'table',
  'json',
  'yaml',
  'ndjson',
  'csv',
  'cli',
] as const);

/** The formats of a command without a rule of its own: all but `cli`, which only commands naming it print. */
export const COMMON_FORMATS: readonly OutputFormat[] = Object.freeze(OUTPUT_FORMATS.filter((f) => f !== 'cli'));

/** The shells Tab completion has a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a value is, and so where Tab completion finds its candidates. */
export type ValueKind =
  | 'none' // free text: nothing to offer
  | 'file' // the shell's own file completion
  | 'choices' // the choices the option declares
  | 'output' // output formats
  | 'group' // access groups of the catalogue
  | 'area' // areas of the catalogue
  | 'device' // saved device profiles
  | 'vdom' // VDOM names, comma-separated
  | 'shell' // bash, zsh, fish
  | 'table' // table paths, filtered by what the command does to a table
  | 'key' // keys of the table, read from the device
  | 'keys' // several keys (each word of a variadic argument)
  | 'field' // one field name of the table
  | 'fields' // comma-separated field names of the table
  | 'filter' // field<op>value, with enum values after the operator
  | 'set' // field=value, with enum values after `=`
  | 'apipath'; // a path under /api/v2/: cmdb/<table> and common monitor paths

/** Which tables a command accepts: those listing one of these operations (SPEC.md codes). */
export interface TableRule {
  keyed: OperationCode[];
  singleton: OperationCode[];
}

/**
 * The output formats a command prints, when not the common ones: the others are a usage error before it
 * runs.
 */
export interface FormatRule {
  /** What it prints, for the error: `a plan`. */
  readonly what: string;
  readonly formats: readonly OutputFormat[];
  /** Its own format when the run names none (else the run's: table on a terminal, json elsewhere). */
  readonly default?: OutputFormat;
}

/** The formats a command prints: its rule's, else the common ones. */
export function formatsOf(rule: FormatRule | undefined): readonly OutputFormat[] {
  return rule?.formats ?? COMMON_FORMATS;
}

/** Where a command shows in help. */
export type HelpGroup = 'objects' | 'metadata' | 'configuration as code' | 'devices and login' | 'tools';

/** One option of a command, as the registry declares it. */
export interface OptionDef {
  /** commander's flags: `-f, --file <path>`, `--all`, `--no-headers`. */
  readonly flags: string;
  readonly description: string;
  /** What its value is, for Tab completion; 'none' for free text. Flags without a value need none. */
  readonly kind?: ValueKind;
  /** Given several times, it collects the values into a list. */
  readonly repeatable?: boolean;
  readonly choices?: readonly string[];
  readonly default?: string;
}

/** What the options object is typed from: an option's flags, and whether it is repeatable or has choices. */
type Flagged = Pick<OptionDef, 'flags' | 'repeatable' | 'choices'>;

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type LongFlag<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;
type OptionKey<F extends string> = LongFlag<F> extends `no-${infer N}` ? Camel<N> : Camel<LongFlag<F>>;
type OptionValue<O extends Flagged> = O['flags'] extends `${string}<${string}>${string}`
  ? O['repeatable'] extends true
    ? string[]
    : O['choices'] extends readonly (infer C)[]
      ? C
      : string
  : boolean;

/**
 * The options object commander hands over, as the flags declare it: `--page-size <n>` → { pageSize?:
 * string }, `--all` → { all?: boolean }, `--no-headers` → { headers?: boolean }, repeatable → string[].
 */
export type OptionsOf<T extends readonly Flagged[]> = [T[number]] extends [never]
  ? // biome-ignore lint/complexity/noBannedTypes: a command without options is handed an empty object
    {}
  : { [O in T[number] as OptionKey<O['flags']>]?: OptionValue<O> };
