// The one reader of a command line besides commander. It reads a line against the grammar generated
// from the registry (the program's options from GLOBAL_OPTIONS, then each command, its options and
// arguments: src/completion/model.ts), never against a list of flags of its own, and reads it as
// commander does: the program's options wherever they stand (up to `--`), the command's after its
// name, `--name value`, `--name=value`, `-x value`, `-xvalue`, bundles `-vo json`, `--no-x`, repeatable
// options collected. What commander would refuse or read otherwise it reads as well as it can, and says
// so (`doubt`): the fast path (src/cli/dispatch.ts) then leaves the line to commander, Tab completes
// what it can. It imports no registry: the grammar is handed in (on Tab and for --help as data written
// at build time), so that the quick paths read a line without loading the registry or commander.
import type { OutputFormat, TableRule, ValueKind } from './types.js';

/** One option of the grammar. */
export interface OptionModel {
  /** `['-o', '--output']`, short flag first. */
  flags: string[];
  /** Its key in commander's opts(): `--page-size` → pageSize, `--no-color` → color. */
  key: string;
  /** `--no-x`: gives false. */
  negate?: boolean;
  description: string;
  /** Whether the option takes a value (`<x>` required, `[x]` optional). */
  value: 'none' | 'required' | 'optional';
  choices?: string[];
  /** What its value is (from the registry), for Tab. */
  kind?: ValueKind;
  /** Given several times, its values are collected into a list. */
  repeatable?: boolean;
  /** Its value when the line does not give it. */
  default?: string;
}

export interface ArgumentModel {
  name: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
  kind?: ValueKind;
}

/** One command of the grammar (the program is the first): its options, arguments and subcommands. */
export interface CommandModel {
  name: string;
  aliases: string[];
  description: string;
  args: ArgumentModel[];
  options: OptionModel[];
  commands: CommandModel[];
  /** Which tables it accepts (from the registry), for Tab; absent: every table. */
  tables?: TableRule;
  /** The output formats it prints (from the registry), for Tab; absent: the common ones. */
  formats?: readonly OutputFormat[];
}

/** What a command line says, as commander would hand it over. */
export interface Reading {
  /** The program, then each command named on the line (`cmdb device list`: three). */
  path: CommandModel[];
  /** The words that are neither commands nor options nor their values. */
  operands: string[];
  /** The program's options as commander's opts() has them, defaults included: `{ output: 'json', color: false }`. */
  globals: Record<string, unknown>;
  /** The command's own options likewise. */
  options: Record<string, unknown>;
  /**
   * The command's arguments by name (camelCase), as commander hands them to the action; when the path
   * ends at a command.
   */
  args: Record<string, string | string[]>;
  /** The option the line ends waiting for the value of (Tab completes that value). */
  pending?: OptionModel;
  /** `--` was given: every word after it is an operand. */
  endOfOptions: boolean;
  /** --help or --version was given (commander prints, and runs no command). */
  help: boolean;
  version: boolean;
  /**
   * Why commander may read the line otherwise, or refuse it, when it might: an unknown option or
   * command, a bundle, `--`, a value that looks like an option or outside its choices, a missing or
   * extra argument, help. Undefined: commander reads it exactly so.
   */
  doubt?: string;
}

const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The long flag of an option (`--output`), else its short one. */
export const longFlag = (o: OptionModel): string => o.flags.find((f) => f.startsWith('--')) ?? o.flags[0]!;

/** What commander puts in opts() before reading the line: declared defaults, true for a lone --no-x. */
function defaults(options: readonly OptionModel[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const o of options) {
    if (o.default !== undefined) values[o.key] = o.default;
    else if (o.negate && !options.some((p) => p.key === o.key && !p.negate)) values[o.key] = true;
  }
  return values;
}

/** The option of `options` named `flag` (`-o`, `--output`). */
export function findOption(options: readonly OptionModel[], flag: string): OptionModel | undefined {
  return options.find((o) => o.flags.includes(flag));
}

const isOption = (word: string) => word.length > 1 && word.startsWith('-');

/** The arguments by name from the operands, or why commander would refuse them. */
function argumentsOf(command: CommandModel, operands: readonly string[]): { args: Reading['args']; doubt?: string } {
  const args: Reading['args'] = {};
  let at = 0;
  for (const arg of command.args) {
    const name = camel(arg.name);
    if (arg.variadic) {
      if (arg.required && at >= operands.length) return { args, doubt: `missing <${arg.name}>` };
      args[name] = operands.slice(at);
      at = operands.length;
    } else if (at < operands.length) args[name] = operands[at++]!;
    else if (arg.required) return { args, doubt: `missing <${arg.name}>` };
    if (arg.choices && [args[name]].flat().some((v) => v !== undefined && !arg.choices!.includes(v)))
      return { args, doubt: `<${arg.name}> outside its choices` };
  }
  return at < operands.length ? { args, doubt: 'too many arguments' } : { args };
}

/** Reads `argv` (the words after the program's name) against `grammar`, the program's model. */
export function readArgv(grammar: CommandModel, argv: readonly string[]): Reading {
  const r: Reading = {
    path: [grammar],
    operands: [],
    globals: defaults(grammar.options),
    options: {},
    args: {},
    endOfOptions: false,
    help: false,
    version: false,
  };
  const doubt = (why: string) => {
    r.doubt ??= why;
  };
  const leaf = () => r.path[r.path.length - 1]!;
  /** The command's own options, once a command is named (the program's are read first, as commander does). */
  const local = () => (r.path.length > 1 ? leaf().options : []);

  /** Records an option; false when it still waits for its value. */
  const set = (o: OptionModel, toProgram: boolean, value: string | undefined): void => {
    const key = o.key;
    if (key === 'help' || key === 'version') {
      r[key] = true;
      doubt(longFlag(o));
      return;
    }
    const into = toProgram ? r.globals : r.options;
    if (o.value === 'none') {
      into[key] = !o.negate;
      return;
    }
    if (value === undefined) return;
    if (isOption(value)) doubt(`a value that looks like an option: ${value}`);
    if (o.choices && !o.choices.includes(value)) doubt(`${longFlag(o)} ${value} outside its choices`);
    into[key] = o.repeatable ? [...((into[key] as string[] | undefined) ?? []), value] : value;
  };

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (r.endOfOptions || !isOption(word)) {
      const sub =
        r.operands.length === 0 ? leaf().commands.find((c) => c.name === word || c.aliases.includes(word)) : undefined;
      if (sub) {
        r.path.push(sub);
        r.options = defaults(sub.options);
      } else r.operands.push(word);
      continue;
    }
    if (word === '--') {
      r.endOfOptions = true;
      doubt('--');
      continue;
    }
    const wants = (o: OptionModel, toProgram: boolean, inline: string | undefined) => {
      if (o.value === 'none' || inline !== undefined) return set(o, toProgram, inline);
      if (i + 1 < argv.length) return set(o, toProgram, argv[++i]);
      r.pending = o;
    };
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const flag = eq < 0 ? word : word.slice(0, eq);
      const inline = eq < 0 ? undefined : word.slice(eq + 1);
      const ofProgram = findOption(grammar.options, flag);
      const o = ofProgram ?? findOption(local(), flag);
      if (!o || (inline !== undefined && o.value === 'none')) doubt(`unknown option ${word}`);
      else wants(o, !!ofProgram, inline);
      continue;
    }
    // `-x`, `-xvalue`, `-vo json`: each letter an option until one takes the rest (or the next word) as
    // its value. Once a letter is the command's, commander reads the rest there, without the program's.
    let programs = true;
    for (let at = 1; at < word.length; at++) {
      const flag = `-${word[at]}`;
      const ofProgram: OptionModel | undefined = programs ? findOption(grammar.options, flag) : undefined;
      const o = ofProgram ?? findOption(local(), flag);
      if (!o) {
        doubt(`unknown option ${flag}`);
        break;
      }
      if (word.length > 2) doubt(`a bundle of short options: ${word}`);
      programs &&= !!ofProgram;
      if (o.value !== 'none') {
        wants(o, !!ofProgram, at + 1 < word.length ? word.slice(at + 1) : undefined);
        break;
      }
      set(o, !!ofProgram, undefined);
    }
  }
  const command = leaf();
  if (command.commands.length) doubt(r.path.length > 1 ? `no command of '${command.name}'` : 'no command');
  else {
    const read = argumentsOf(command, r.operands);
    r.args = read.args;
    if (read.doubt) doubt(read.doubt);
  }
  if (r.pending) doubt(`${longFlag(r.pending)} without its value`);
  return r;
}

/** The command path named on the line, without the program: `['device', 'list']`. */
export const commandPath = (r: Reading): string[] => r.path.slice(1).map((c) => c.name);
