import { PassThrough } from 'node:stream';
import type { IO } from '../../src/run/context.js';

export interface TerminalIO extends IO {
  out(): string;
  err(): string;
  /** Answers not yet given (their prompt never appeared). */
  unanswered(): string[];
}

/**
 * A terminal stand-in: stdin is a TTY in raw mode; each answer is typed once stderr shows the prompt
 * that matches it, in order.
 */
export function terminalIO(answers: [prompt: RegExp, typed: string][] = []): TerminalIO {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    rawMode: false,
    setRawMode(mode: boolean) {
      stdin.rawMode = mode;
      return stdin;
    },
  });
  const pending = [...answers];
  let out = '';
  let err = '';
  let since = 0;
  return {
    stdin: stdin as unknown as IO['stdin'],
    stdout: { isTTY: true, columns: 120, write: (s: string) => ((out += s), true) },
    stderr: {
      isTTY: true,
      write: (s: string) => {
        err += s;
        const next = pending[0];
        if (next?.[0].test(err.slice(since))) {
          pending.shift();
          since = err.length;
          setImmediate(() => stdin.write(next[1]));
        }
        return true;
      },
    },
    out: () => out,
    err: () => err,
    unanswered: () => pending.map(([prompt]) => String(prompt)),
  };
}
