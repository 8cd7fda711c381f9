import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = join(ROOT, 'bin/cmdb.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A throwaway HOME with its own XDG config, state and cache folders, so runs never touch the user's;
 * removed when the test file's process ends. The temp folder is passed on, so that what a run leaves
 * there is seen by `npm test` too.
 */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir('cmdb-home-');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    ...extra,
  };
  return env;
}

/** Runs the built CLI as a user would: a separate process, real argv, stdin, stdout, stderr and exit code. */
export function cmdb(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      env: options.env ?? isolatedEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    // A run that ends before reading its stdin closes the pipe: what it did not read is not an error.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** Parses stdout as JSON, with the whole run in the message when it is not. */
export function json<T = unknown>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}
