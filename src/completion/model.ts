import type { Argument, Command, Option } from 'commander';
import { GLOBAL_OPTIONS } from '../settings.js';
import { COMMANDS, PARENTS, type CommandDef, type OptionSpec } from '../commands/registry.js';
import type { TableRule, ValueKind } from './kinds.js';

/** What completion needs to know of one option. */
export interface OptionModel {
  /** `['-o', '--output']`, short flag first. */
  flags: string[];
  description: string;
  /** Whether the option takes a value (`<x>` required, `[x]` optional). */
  value: 'none' | 'required' | 'optional';
  choices?: string[];
  /** What its value is (from the registry). */
  kind?: ValueKind;
}

export interface ArgumentModel {
  name: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
  kind?: ValueKind;
}

export interface CommandModel {
  name: string;
  aliases: string[];
  description: string;
  args: ArgumentModel[];
  options: OptionModel[];
  commands: CommandModel[];
  /** Which tables it accepts (from the registry); absent: every table. */
  tables?: TableRule;
}

const HELP: OptionModel = { flags: ['-h', '--help'], description: 'display help for command', value: 'none' };

function optionModel(flags: string, description: string, kind?: ValueKind, choices?: readonly string[]): OptionModel {
  const words = flags.split(/[ ,]+/);
  const model: OptionModel = {
    flags: words.filter((w) => w.startsWith('-')),
    description,
    value: words.some((w) => w.startsWith('<'))
      ? 'required'
      : words.some((w) => w.startsWith('['))
        ? 'optional'
        : 'none',
  };
  if (choices) model.choices = [...choices];
  if (kind && model.value !== 'none') model.kind = kind;
  return model;
}

function argumentModels(def: CommandDef): ArgumentModel[] {
  return def.spec
    .split(' ')
    .slice(1)
    .map((word) => {
      const name = word.replace(/^[<[]|\.\.\.|[>\]]$/g, '');
      const kind = def.args?.[name];
      return { name, required: word.startsWith('<'), variadic: word.includes('...'), ...(kind ? { kind } : {}) };
    });
}

function commandModel(def: CommandDef): CommandModel {
  const model: CommandModel = {
    name: def.spec.split(' ')[0],
    aliases: [],
    description: def.description,
    args: argumentModels(def),
    options: [
      ...(def.options ?? []).map((o: OptionSpec) => optionModel(o.flags, o.description, o.kind ?? 'none', o.choices)),
      HELP,
    ],
    commands: [],
  };
  if (def.tables) model.tables = def.tables;
  return model;
}

/** The program as Tab completion sees it, generated from the registry and the options table (no commander). */
export function completionModel(): CommandModel {
  const program: CommandModel = {
    name: 'cmdb',
    aliases: [],
    description:
      'Administer the configuration database (CMDB) of a network security device (release 6.4.14) ' +
      'through its REST API.',
    args: [],
    options: [
      optionModel('-V, --version', 'print the version'),
      ...GLOBAL_OPTIONS.map((o) => optionModel(o.flags, o.description, o.kind)),
      HELP,
    ],
    commands: [],
  };
  const parents = new Map<string, CommandModel>();
  for (const def of COMMANDS) {
    let parent = program;
    if (def.parent) {
      if (!parents.has(def.parent)) {
        const group: CommandModel = {
          name: def.parent,
          aliases: [],
          description: PARENTS[def.parent],
          args: [],
          options: [HELP],
          commands: [],
        };
        parents.set(def.parent, group);
        program.commands.push(group);
      }
      parent = parents.get(def.parent)!;
    }
    parent.commands.push(commandModel(def));
  }
  return program;
}

function describeOption(o: Option): OptionModel {
  const model: OptionModel = {
    flags: [o.short, o.long].filter((f): f is string => !!f),
    description: o.description,
    value: o.required ? 'required' : o.optional ? 'optional' : 'none',
  };
  if (o.argChoices) model.choices = [...o.argChoices];
  return model;
}

function describeArgument(a: Argument): ArgumentModel {
  const model: ArgumentModel = { name: a.name(), required: a.required, variadic: a.variadic };
  if (a.argChoices) model.choices = [...a.argChoices];
  return model;
}

/** The shape commander gives a program, to check the completion model against (a test does). */
export function describeCommand(cmd: Command): CommandModel {
  const hidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description(),
    args: cmd.registeredArguments.map(describeArgument),
    options: [...cmd.options.filter((o) => !o.hidden).map(describeOption), HELP],
    commands: cmd.commands.filter((c) => !hidden(c)).map(describeCommand),
  };
}
