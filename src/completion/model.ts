import type { Argument, Command, Option } from 'commander';

/** What completion needs to know of one option of the commander program. */
export interface OptionModel {
  /** `['-o', '--output']`, short flag first. */
  flags: string[];
  description: string;
  /** Whether the option takes a value (`<x>` required, `[x]` optional). */
  value: 'none' | 'required' | 'optional';
  choices?: string[];
}

export interface ArgumentModel {
  name: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
}

export interface CommandModel {
  name: string;
  aliases: string[];
  description: string;
  args: ArgumentModel[];
  options: OptionModel[];
  commands: CommandModel[];
}

const HELP: OptionModel = { flags: ['-h', '--help'], description: 'display help for command', value: 'none' };

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

/**
 * The shape of the commander program that completion relies on: commands, their arguments and
 * options. `program.ts` holds it as generated data so that Tab never builds the commander program;
 * a test regenerates it from `buildProgram()` and fails when the two differ.
 */
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

/** A command as TypeScript, one option or argument per line so that a diff shows what changed. */
function commandSource(c: CommandModel, indent: string): string {
  const inner = `${indent}  `;
  const list = (items: unknown[], item: (x: never) => string) =>
    items.length ? ['[', ...items.map((x) => `${inner}  ${item(x as never)},`), `${inner}]`].join('\n') : '[]';
  return [
    '{',
    `${inner}name: ${JSON.stringify(c.name)},`,
    `${inner}aliases: ${JSON.stringify(c.aliases)},`,
    `${inner}description: ${JSON.stringify(c.description)},`,
    `${inner}args: ${list(c.args, JSON.stringify)},`,
    `${inner}options: ${list(c.options, JSON.stringify)},`,
    `${inner}commands: ${list(c.commands, (sub: CommandModel) => commandSource(sub, `${inner}  `))},`,
    `${indent}}`,
  ].join('\n');
}

/** The TypeScript source of `program.ts` for a program. */
export function programSource(program: Command): string {
  return [
    '// Generated from buildProgram() in src/cli/main.ts: do not edit by hand.',
    '// Regenerate with `CMDB_UPDATE_COMPLETION=1 node --test dist/test/completion/` after changing commands or options.',
    "import type { CommandModel } from './model.js';",
    '',
    `export const PROGRAM: CommandModel = ${commandSource(describeCommand(program), '')};`,
    '',
  ].join('\n');
}
