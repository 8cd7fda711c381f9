// The one colour decision (--no-color, NO_COLOR, FORCE_COLOR, a pipe, TERM=dumb), what is known of the
// terminal, and the palette, loaded only when colour is on.
import type { ChalkInstance } from 'chalk';
import type { OutputFormat } from '../grammar/types.js';

/** What is known of stdout: a terminal or not, its width, and whether it shows colour. */
export interface Terminal {
  isTTY: boolean;
  /** Width to fit tables into; only honoured when isTTY (piped output is never cut). */
  columns: number;
  color: boolean;
}

/**
 * Whether to write ANSI colour. Precedence, first match wins:
 *   1. --no-color                          -> off (an explicit flag beats any environment)
 *   2. FORCE_COLOR set and non-empty       -> on, except "0" or "false" -> off (as Node and chalk read it);
 *                                             it beats NO_COLOR, as in Node, being the more specific wish
 *   3. NO_COLOR set and non-empty          -> off (no-color.org)
 *   4. stream is not a TTY                 -> off
 *   5. TERM=dumb                           -> off
 *   6. otherwise                           -> on
 */
export function decideColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (stream.isTTY !== true) return false;
  return env.TERM !== 'dumb';
}

/** table on a terminal, json otherwise (CLI.md, `-o`). */
export function defaultFormat(stdoutIsTTY: boolean): OutputFormat {
  return stdoutIsTTY ? 'table' : 'json';
}

const DEFAULT_COLUMNS = 80;

/** The Terminal for a stream: its TTY-ness, its width (else $COLUMNS, else 80) and the colour decision. */
export function terminalFor(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
  noColorFlag: boolean,
): Terminal {
  const isTTY = stream.isTTY === true;
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  const columns =
    isTTY && typeof stream.columns === 'number' && stream.columns > 0
      ? stream.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_COLUMNS;
  return { isTTY, columns, color: decideColor(stream, env, noColorFlag) };
}

let palette: ChalkInstance | undefined;

/**
 * Loads chalk for a run whose colour decision (decideColor) is on: imported only then, so --version,
 * piped runs and Tab never load it. Its level is set here, never by chalk's own detection, which
 * would second-guess --no-color, NO_COLOR, FORCE_COLOR and the pipe test above.
 */
export async function loadPalette(): Promise<void> {
  if (palette) return;
  const { Chalk } = await import('chalk');
  palette = new Chalk({ level: 1 });
}

export type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'green';

/** Text in a style, for output whose colour decision is on; plain until loadPalette() has run. */
export function paint(style: Style, text: string): string {
  return palette ? palette[style](text) : text;
}
