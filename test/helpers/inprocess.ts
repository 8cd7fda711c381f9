// The program run in the test's own process: main(argv, io, env) with captured streams, as
// bin/cmdb.js runs it but without a process of its own (~100-200 ms and a core saved per run). For
// tests whose subject is what a command does (its output, exit code, what the device received), not
// the process boundary: exit codes as the OS sees them, signals, a real stdin or pipe, the launcher
// (bin/cmdb.js, its bundle and quick answers), node flags and the editor (which inherits the
// process's terminal) stay with cmdb() of cli.ts. Only main() is called, never src internals, so the
// tests hold while the program's insides change.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { isolatedEnv, type Run } from './cli.js';

type IO = NonNullable<Parameters<typeof main>[1]>;

/** A run's output as a spawned run's would be: the bytes written, decoded as UTF-8. */
function capture(): { stream: IO['stdout']; text: () => string } {
  const chunks: Buffer[] = [];
  return {
    stream: {
      write: (chunk: string | Uint8Array) => (chunks.push(Buffer.from(chunk)), true),
      isTTY: false,
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `cmdb ...args` in-process against `env` (isolatedEnv() when none: never the developer's own
 * profiles), stdin a pipe holding `stdin` (empty by default), stdout and stderr pipes (not terminals).
 * Fails the test when the run leaves process-wide state behind (signal handlers, process.exitCode,
 * the working folder), which a spawned run would take with it.
 */
export async function runInProcess(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string | Buffer; timeoutMs?: number } = {},
): Promise<Run & { code: number }> {
  const out = capture();
  const err = capture();
  const input = options.stdin ?? '';
  const stdin = new Readable({ read() {} });
  if (input.length) stdin.push(typeof input === 'string' ? Buffer.from(input) : input);
  stdin.push(null);
  const io: IO = { stdout: out.stream, stderr: err.stream, stdin };
  const listeners = SIGNALS.map((s) => process.listenerCount(s));
  const exitCode = process.exitCode;
  const cwd = process.cwd();
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`cmdb ${args.join(' ')} did not end within ${timeoutMs} ms:\n${out.text()}${err.text()}`)),
      timeoutMs,
    );
  });
  let code: number;
  try {
    code = await Promise.race([main([...args], io, options.env ?? isolatedEnv()), timeout]);
  } finally {
    clearTimeout(timer);
  }
  const run = { code, stdout: out.text(), stderr: err.text() };
  assert.deepEqual(
    SIGNALS.map((s) => process.listenerCount(s)),
    listeners,
    `cmdb ${args.join(' ')} left signal handlers behind`,
  );
  assert.equal(process.exitCode, exitCode, `cmdb ${args.join(' ')} set process.exitCode`);
  assert.equal(process.cwd(), cwd, `cmdb ${args.join(' ')} changed the working folder`);
  return run;
}
