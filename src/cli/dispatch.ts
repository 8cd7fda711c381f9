// A command line read straight from the registry, without building the commander program (~15 ms
// of every run: loading commander and declaring every command and option). Only the plain forms are
// read here: `--name value`, `--name=value`, `-x value`, flags, `--no-x`, the command's arguments.
// Anything else (a bundle like `-vo`, `--`, an unknown option or command, a value that looks like an
// option, a wrong number of arguments, a value outside its choices, --help, --version) gives null and
// commander reads the line, with its own messages. A test checks both readings agree on every
// command and option.
import { COMMANDS } from '../commands/registry.js';
import type { CommandDef, OptionSpec } from '../commands/spec.js';
import { GLOBAL_OPTIONS } from '../settings.js';

export interface Dispatch {
  def: CommandDef;
  /** The arguments by name, as commander hands them to the action. */
  args: Record<string, string | string[]>;
  /** The command's own options, defaults included. */
  options: Record<string, unknown>;
  /** The program's options, defaults included. */
  globals: Record<string, unknown>;
}

interface Flag {
  short?: string;
  long: string;
  key: string;
  value: boolean;
  negate: boolean;
  repeatable: boolean;
  choices?: readonly string[];
  default?: string;
}

const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function flagOf(spec: Pick<OptionSpec, 'flags' | 'repeatable' | 'choices' | 'default'>): Flag | null {
  const m = /^(?:-(\w), )?--([a-z][\w-]*)( <[^>]+>)?$/.exec(spec.flags);
  if (!m) return null; // an optional value `[x]` or another form: left to commander
  const negate = m[2]!.startsWith('no-');
  return {
    short: m[1],
    long: m[2]!,
    key: camel(negate ? m[2]!.slice(3) : m[2]!),
    value: !!m[3],
    negate,
    repeatable: !!spec.repeatable,
    choices: spec.choices,
    default: spec.default,
  };
}

function flagsOf(specs: readonly Pick<OptionSpec, 'flags' | 'repeatable' | 'choices' | 'default'>[]): Flag[] | null {
  const flags = specs.map(flagOf);
  return flags.every((f) => f !== null) ? (flags as Flag[]) : null;
}

/** What commander puts in opts() before reading the line: declared defaults, true for a lone --no-x. */
function defaults(flags: Flag[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of flags) {
    if (f.default !== undefined) values[f.key] = f.default;
    else if (f.negate && !flags.some((g) => g.key === f.key && !g.negate)) values[f.key] = true;
  }
  return values;
}

interface Argument {
  name: string;
  required: boolean;
  variadic: boolean;
}

function argumentsOf(spec: string): Argument[] {
  return spec
    .split(' ')
    .slice(1)
    .map((word) => ({
      name: camel(word.replace(/^[<[]|\.\.\.|[>\]]$/g, '')),
      required: word.startsWith('<'),
      variadic: word.includes('...'),
    }));
}

const GLOBAL_FLAGS = flagsOf(GLOBAL_OPTIONS);

function findCommand(name: string, parent: string | undefined): CommandDef | undefined {
  return COMMANDS.find((def) => def.parent === parent && def.spec.split(' ')[0] === name);
}

/** The registry's reading of `argv`, or null when commander must read it. */
export function dispatch(argv: readonly string[]): Dispatch | null {
  if (!GLOBAL_FLAGS) return null;
  const globals = defaults(GLOBAL_FLAGS);
  let def: CommandDef | undefined;
  let local: Flag[] = [];
  let options: Record<string, unknown> = {};
  let parent: string | undefined;
  const operands: string[] = [];

  const set = (flag: Flag, into: Record<string, unknown>, value: string | undefined): boolean => {
    if (!flag.value) {
      if (value !== undefined) return false;
      into[flag.key] = !flag.negate;
      return true;
    }
    if (value === undefined || value.startsWith('-')) return false;
    if (flag.choices && !flag.choices.includes(value)) return false;
    into[flag.key] = flag.repeatable ? [...((into[flag.key] as string[] | undefined) ?? []), value] : value;
    return true;
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token.startsWith('-') && token !== '-') {
      let name: string;
      let inline: string | undefined;
      const long = /^--([a-z][\w-]*)(?:=(.*))?$/s.exec(token);
      const short = /^-(\w)$/.exec(token);
      if (long) [name, inline] = [long[1]!, long[2]];
      else if (short) name = short[1]!;
      else return null;
      const match = (f: Flag) => (long ? f.long === name : f.short === name);
      // The program's options are read wherever they stand, before the command's (as commander does).
      const flag = GLOBAL_FLAGS.find(match) ?? local.find(match);
      if (!flag) return null;
      let value = inline;
      if (flag.value && value === undefined) value = argv[++i];
      if (!set(flag, GLOBAL_FLAGS.includes(flag) ? globals : options, value)) return null;
      continue;
    }
    if (def) {
      operands.push(token);
      continue;
    }
    const found = findCommand(token, parent);
    if (!found) {
      if (parent || !COMMANDS.some((d) => d.parent === token)) return null;
      parent = token;
      continue;
    }
    const flags = flagsOf(found.options ?? []);
    if (!flags) return null;
    def = found;
    local = flags;
    options = defaults(flags);
  }
  if (!def) return null;

  const args: Record<string, string | string[]> = {};
  const declared = argumentsOf(def.spec);
  let at = 0;
  for (const arg of declared) {
    if (arg.variadic) {
      if (arg.required && at >= operands.length) return null;
      args[arg.name] = operands.slice(at);
      at = operands.length;
    } else if (at < operands.length) args[arg.name] = operands[at++]!;
    else if (arg.required) return null;
  }
  if (at < operands.length) return null;
  return { def, args, options, globals };
}
