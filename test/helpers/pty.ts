import { spawn } from 'node:child_process';
import { BIN, type Run } from './cli.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`, in every Debian's base system):
 * stdin, stdout and stderr are one terminal, so what the user typed is echoed and both streams
 * arrive together in `stdout`. `typed` is what the user types; `code` is the CLI's exit code.
 */
export function cmdbOnTerminal(
  args: string[],
  typed: string,
  env: NodeJS.ProcessEnv,
  options: { columns?: number; when?: [shown: RegExp, typed: string][] } = {},
): Promise<Run> {
  const cli = [process.execPath, BIN, ...args].map(quote).join(' ');
  const command = options.columns ? `stty cols ${options.columns} rows 50; exec ${cli}` : cli;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // `when`: keys typed once the terminal shows their pattern (Ctrl-C in the middle of a run), in order.
    const pending = [...(options.when ?? [])];
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!pending.length || !pending[0][0].test(stdout)) return;
      child.stdin.write(pending.shift()![1]);
      if (!pending.length) child.stdin.end();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.replace(/\r\n/g, '\n'), stderr });
    });
    if (pending.length) child.stdin.write(typed);
    else child.stdin.end(typed);
  });
}
