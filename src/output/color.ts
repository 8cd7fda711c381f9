import type { OutputFormat, Terminal } from './types.js';

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

// A handful of SGR codes written by hand: cheaper than loading chalk, and chalk's own
// colour detection would second-guess decideColor.
function sgr(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

export const ansi = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
};
