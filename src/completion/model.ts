// The grammar of the command line, generated from the registry and the global options: what Tab
// completes, what the fast path and the quick paths read a line against (src/grammar/argv.ts); on Tab
// and in the bundled program as data written at build time (src/completion/program.ts).
import type { Argument, Command, Option } from 'commander';
import { GLOBAL_OPTIONS, type GlobalOption } from '../settings.js';
import type { ArgumentModel, CommandModel, OptionModel } from '../grammar/argv.js';
import { COMMANDS, PARENTS, type CommandDef } from '../commands/registry.js';
import type { OptionDef, ValueKind } from '../grammar/types.js';

export type { ArgumentModel, CommandModel, OptionModel } from '../grammar/argv.js';

const HELP: OptionModel = {
  flags: ['-h', '--help'],
  key: 'help',
  description: 'display help for command',
  value: 'none',
};

/** The key commander gives an option in opts(): `--page-size` → pageSize, `--no-color` → color. */
function optionKey(flags: readonly string[]): string {
  const name = (flags.find((f) => f.startsWith('--')) ?? flags[0]!).replace(/^-+/, '');
  return (name.startsWith('no-') ? name.slice(3) : name).replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

function optionModel(
  flags: string,
  description: string,
  kind?: ValueKind,
  declared: Pick<OptionDef, 'choices' | 'repeatable' | 'default'> = {},
): OptionModel {
  const { choices } = declared;
  const words = flags.split(/[ ,]+/);
  const names = words.filter((w) => w.startsWith('-'));
  const model: OptionModel = {
    flags: names,
    key: optionKey(names),
    ...(names.some((f) => f.startsWith('--no-')) ? { negate: true } : {}),
    description,
    value: words.some((w) => w.startsWith('<'))
      ? 'required'
      : words.some((w) => w.startsWith('['))
        ? 'optional'
        : 'none',
  };
  if (choices) model.choices = [...choices];
  if (kind && model.value !== 'none') model.kind = kind;
  if (declared.repeatable) model.repeatable = true;
  if (declared.default !== undefined) model.default = declared.default;
  return model;
}

function argumentModels(def: CommandDef): ArgumentModel[] {
  return def.signature
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
    name: def.signature.split(' ')[0],
    aliases: [],
    description: def.description,
    args: argumentModels(def),
    options: [
      ...(def.options ?? []).map((o: OptionDef) => optionModel(o.flags, o.description, o.kind ?? 'none', o)),
      HELP,
    ],
    commands: [],
  };
  if (def.tables) model.tables = def.tables;
  if (def.output) model.formats = def.output.formats;
  return model;
}

/**
 * The program as Tab completion sees it, generated from the registry and the global options' records
 * (all of them but in tests), without commander.
 */
export function completionModel(options: readonly GlobalOption[] = GLOBAL_OPTIONS): CommandModel {
  const program: CommandModel = {
    name: 'cmdb',
    aliases: [],
    description:
      'Administer the configuration database (CMDB) of a network security device (release 6.4.14) ' +
      'through its REST API.',
    args: [],
    options: [
      optionModel('-V, --version', 'print the version'),
      ...options.map((o) => optionModel(o.flags, o.description, o.kind)),
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

function optionModelOf(o: Option): OptionModel {
  const model: OptionModel = {
    flags: [o.short, o.long].filter((f): f is string => !!f),
    key: o.attributeName(),
    ...(o.negate ? { negate: true } : {}),
    description: o.description,
    value: o.required ? 'required' : o.optional ? 'optional' : 'none',
  };
  if (o.argChoices) model.choices = [...o.argChoices];
  if (o.defaultValue !== undefined) model.default = o.defaultValue as string;
  return model;
}

function argumentModelOf(a: Argument): ArgumentModel {
  const model: ArgumentModel = { name: a.name(), required: a.required, variadic: a.variadic };
  if (a.argChoices) model.choices = [...a.argChoices];
  return model;
}

/** The shape commander gives a program, to check the completion model against (a test does). */
export function commandModelOf(cmd: Command): CommandModel {
  const hidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description(),
    args: cmd.registeredArguments.map(argumentModelOf),
    options: [...cmd.options.filter((o) => !o.hidden).map(optionModelOf), HELP],
    commands: cmd.commands.filter((c) => !hidden(c)).map(commandModelOf),
  };
}
