// A command line read without building the commander program (~15 ms of every run: loading commander
// and declaring every command and option): the one reader (src/grammar/argv.ts) against the grammar
// generated from the registry. A line it has a doubt about (a bundle like `-vo`, `--`, an unknown
// option or command, a value that looks like an option, a wrong number of arguments, a value outside
// its choices, --help, --version) gives null and commander reads the line, with its own messages. A
// test checks both readings agree on every command and option.
import { readArgv, type Reading } from '../grammar/argv.js';
import { COMMANDS } from '../commands/registry.js';
import type { CommandDef } from '../commands/define.js';
import { PROGRAM } from '../completion/program.js';

export interface Dispatch {
  def: CommandDef;
  /** The arguments by name, as commander hands them to the action. */
  args: Record<string, string | string[]>;
  /** The command's own options, defaults included. */
  options: Record<string, unknown>;
  /** The program's options, defaults included. */
  globals: Record<string, unknown>;
}

/** The registry's entry for a command path (`['device', 'list']`). */
export function commandDef(path: readonly string[]): CommandDef | undefined {
  const [parent, name] = path.length === 2 ? path : [undefined, path[0]];
  return COMMANDS.find((def) => def.parent === parent && def.signature.split(' ')[0] === name);
}

/** The registry's reading of `argv`, or null when commander must read it. */
export function dispatch(argv: readonly string[], reading: Reading = readArgv(PROGRAM, argv)): Dispatch | null {
  if (reading.doubt !== undefined) return null;
  const def = commandDef(reading.path.slice(1).map((c) => c.name));
  return def ? { def, args: reading.args, options: reading.options, globals: reading.globals } : null;
}
