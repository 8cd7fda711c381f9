// Questions on the terminal: one line (hidden for a secret) and yes or no, on stderr.
import { CmdbError, UsageError } from '../errors.js';
import type { IO } from './types.js';

/** Prompts only where a person can answer: stdin is a terminal. */
export function isInteractive(io: IO): boolean {
  return !!io.stdin.isTTY;
}

/**
 * Asks one line on the terminal (question on stderr), in raw mode so a secret is never echoed:
 * hidden answers show nothing, others are echoed as typed. Ctrl-C cancels.
 */
export function ask(io: IO, question: string, options: { hidden?: boolean } = {}): Promise<string> {
  const stdin = io.stdin;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = (error?: CmdbError) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: string | Buffer) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new CmdbError('cancelled', 130));
        if (char === '\u007f' || char === '\b') {
          if (answer && !options.hidden) io.stderr.write('\b \b');
          answer = answer.slice(0, -1);
          continue;
        }
        answer += char;
        if (!options.hidden) io.stderr.write(char);
      }
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding?.('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}

/** A yes/no question; anything but y or yes is no. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  return /^y(es)?$/i.test((await ask(io, `${question} [y/N] `)).trim());
}

/** Asks on a terminal, or fails with the flag that gives the answer without one. */
export async function askOrFail(
  io: IO,
  question: string,
  flag: string,
  options: { hidden?: boolean } = {},
): Promise<string> {
  if (!isInteractive(io))
    throw new UsageError(
      `stdin is not a terminal, so cmdb cannot ask: ${question.replace(/[:?]\s*$/, '')}`,
      `give it with ${flag}`,
    );
  return ask(io, question, options);
}
