// The shape of a command as data (registry.ts), and the types that make the compiler check a
// command's run(ctx, args, options) against what the registry declares: the arguments come from the
// signature (`list <table>` → { table: string }), the options from their flags (OptionsOf, src/grammar/types.ts).
import type { Context } from '../run/context.js';
import type { FormatRule, HelpGroup, OptionDef, OptionsOf, TableRule, ValueKind } from '../grammar/types.js';

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

type ArgumentOf<W extends string> = W extends `<${infer N}...>`
  ? { [K in Camel<N>]: string[] }
  : W extends `[${infer N}...]`
    ? { [K in Camel<N>]: string[] }
    : W extends `<${infer N}>`
      ? { [K in Camel<N>]: string }
      : W extends `[${infer N}]`
        ? { [K in Camel<N>]?: string }
        : unknown;
type ArgumentsOfWords<S extends string> = S extends `${infer W} ${infer Rest}`
  ? ArgumentOf<W> & ArgumentsOfWords<Rest>
  : ArgumentOf<S>;
type Flatten<T> = { [K in keyof T]: T[K] };

/** The positional arguments of a signature (`get <table> [key]` → { table: string; key?: string }). */
export type ArgumentsOf<S extends string> = Flatten<ArgumentsOfWords<S> & {}>;

export type Run<A, O> = (ctx: Context, args: A, options: O) => Promise<number>;

/** The same keys both ways: a command's options type names exactly the options the registry declares. */
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
/** The options parameter of a run() (unknown when it takes none). */
type OptionsParameter<R> = R extends (ctx: never, args: never, options: infer O) => unknown ? O : unknown;

/** One command as data. */
export interface CommandDef {
  /** Its name and arguments as commander reads them: `get <table> [key]`. */
  readonly signature: string;
  /** The command group it belongs to (`device` for `device list`), if any. */
  readonly parent?: string;
  readonly description: string;
  readonly group: HelpGroup;
  /** What each argument is, for Tab completion, by argument name. */
  readonly args?: Readonly<Record<string, ValueKind>>;
  readonly options?: readonly OptionDef[];
  /** The output formats it prints; absent: every one. */
  readonly output?: FormatRule;
  /** Which tables it accepts (Tab offers only those); absent: every table. */
  readonly tables?: TableRule;
  /** Two or three real command lines, shown by --help and the man page. */
  readonly examples?: readonly string[];
  /**
   * How it uses the devices -d selects: 'each' runs it on every one when -d names several (CLI.md,
   * "Many devices"); 'one' needs exactly one; absent, it talks to no device and ignores -d.
   */
  readonly devices?: 'each' | 'one';
  /**
   * It changes the device (unless --dry-run): on several devices a terminal is asked once first. An
   * option's name (camelCase): it writes only with that option (`unused --delete`).
   */
  readonly writes?: boolean | string;
  /**
   * 'plan': on several devices it reads every one and shows each plan before the one question
   * (apply), instead of asking before anything is read.
   */
  readonly asks?: 'plan';
  /** The arguments as a person reads them, where the signature says less (`update <table> [key] [body]`). */
  readonly usage?: string;
  /** What help must say besides the options (which of them are needed together). */
  readonly notes?: readonly string[];
  /** Imports the command's module (only when it runs) and gives its run(). */
  readonly load: () => Promise<Run<never, never>>;
}

/** Whether a run of a command with these options may send a write (never with --dry-run). */
export function writesWith(def: Pick<CommandDef, 'writes'>, options: object): boolean {
  const given = options as Record<string, unknown>;
  if (given.dryRun || !def.writes) return false;
  return typeof def.writes === 'string' ? !!given[def.writes] : true;
}

/**
 * A registry entry whose run() the compiler checks: its arguments are those of the signature, its options
 * exactly those declared (a missing or extra option, or another value type, does not compile).
 */
export function defineCommand<
  const S extends string,
  const O extends readonly OptionDef[] = readonly [],
  R extends Run<ArgumentsOf<S>, OptionsOf<O>> = Run<ArgumentsOf<S>, OptionsOf<O>>,
>(
  def: Omit<CommandDef, 'signature' | 'options' | 'load'> & {
    signature: S;
    options?: O;
    load: () => Promise<
      R &
        (SameKeys<OptionsParameter<R>, OptionsOf<O>> extends true
          ? unknown
          : { 'options do not match the registry': OptionsOf<O> })
    >;
  },
): CommandDef {
  return def as unknown as CommandDef;
}
