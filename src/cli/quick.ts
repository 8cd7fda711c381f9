// Answers that need neither the registry nor commander, given before either is loaded (bin/cmdb.js):
// `--version`, and `--help` of the program or of one command, as commander renders it, from the text
// rendered at build time (scripts/render-help.js writes help.json beside this module, with the grammar
// the line is read against: src/grammar/argv.ts, the one reader). Anything else, or a terminal whose
// width would wrap the help otherwise, goes to main(). Files are named from
// dist/src/cli/ as from the bundle in dist/src/bundle/ (scripts/bundle.js): the same depth.
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { type CommandModel, commandPath, readArgv } from '../grammar/argv.js';
import { writeStdout } from '../output/stdout.js';

export interface RenderedHelp {
  /** The grammar generated from the registry (src/completion/model.ts), without descriptions. */
  grammar: CommandModel;
  /** Help of each command path ('' for the program, 'list', 'device list'): at width 80, and unwrapped. */
  help: { [path: string]: { narrow: string; wide: string; wideWidth: number } };
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function renderedHelp(): RenderedHelp | null {
  try {
    return JSON.parse(readFileSync(new URL('../cli/help.json', import.meta.url), 'utf8')) as RenderedHelp;
  } catch {
    return null;
  }
}

/**
 * The text for stdout, or null when main() must run. `width` is what commander wraps help to:
 * the terminal's columns, undefined when stdout is not a terminal (80).
 */
export function quickAnswer(argv: readonly string[], width: number | undefined): string | null {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) return `${version()}\n`;
  // commander's own help flag last (checked here first: the rendered text is read only for --help)...
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return null;
  const rendered = renderedHelp();
  if (!rendered) return null;
  // ...after the words of a command path only: `cmdb device list --help`.
  const reading = readArgv(rendered.grammar, argv);
  const path = commandPath(reading);
  if (!reading.help || path.length !== argv.length - 1) return null;
  const help = rendered.help[path.join(' ')];
  if (!help) return null;
  if (width === undefined || width === 80) return help.narrow;
  return width >= help.wideWidth ? help.wide : null;
}

/** Writes the quick answer for this process's command line, if there is one; true when it did. */
export function answerQuickly(argv: readonly string[]): boolean {
  // process.stdout is not touched unless it is a terminal: setting up the stream costs ~15% of a
  // `cmdb --version` piped to a script.
  const text = quickAnswer(argv, isatty(1) ? process.stdout.columns : undefined);
  if (text === null) return false;
  writeStdout(text);
  return true;
}
