// Drives real bash, zsh and fish non-interactively against the built CLI (see drivers/).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { BIN, ROOT, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

export type ShellName = 'bash' | 'zsh' | 'fish';

const DRIVERS = join(ROOT, 'test/completion/drivers');
export const SCRIPT = (shell: ShellName) => join(ROOT, 'completions', `cmdb.${shell}`);

export function hasShell(shell: ShellName): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

/** A missing shell skips the test on a developer's machine; in CI (CI set) it fails. */
export function needShells(t: TestContext, ...shells: ShellName[]): boolean {
  const missing = shells.filter((s) => !hasShell(s));
  if (!missing.length) return true;
  if (process.env.CI)
    throw new Error(`${missing.join(', ')} not installed (CI installs bash, zsh and fish with apt in .ci/run)`);
  t.skip(`${missing.join(', ')} not installed`);
  return false;
}

let wrapperDir: string | undefined;

/** A folder with a `cmdb` that runs this checkout's bin/cmdb.js, to put first on PATH. */
function cmdbOnPath(): string {
  if (!wrapperDir) {
    wrapperDir = tempDir('cmdb-path-');
    const wrapper = join(wrapperDir, 'cmdb');
    writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(wrapper, 0o755);
  }
  return wrapperDir;
}

/** An isolated environment (own HOME and XDG folders) whose PATH finds this checkout's cmdb. */
export function shellEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = isolatedEnv(extra);
  return { ...env, PATH: `${cmdbOnPath()}:${process.env.PATH}`, TERM: 'dumb' };
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Asynchronous on purpose: an emulator in this process must keep answering while the shell runs.
 * A shell still running after `watchdogMs` is killed: its driver then fails (a hang, never a figure).
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, watchdogMs = 20_000): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), watchdogMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);

export interface Completed {
  /** The candidates the shell got, as it would insert them (bash: escaped, trimmed at COMP_WORDBREAKS). */
  candidates: string[];
  /** What the completion function printed on stderr (bash: its compopt calls). */
  stderr: string;
}

/** bash: calls _cmdb as programmable completion does and returns COMPREPLY. */
export async function bashComplete(line: string, env: NodeJS.ProcessEnv, watchdogMs?: number): Promise<Completed> {
  const r = await run(
    'bash',
    ['--norc', '--noprofile', join(DRIVERS, 'bash-function.bash'), SCRIPT('bash'), line],
    env,
    watchdogMs,
  );
  if (r.code !== 0) throw new Error(`bash driver failed (${r.code}): ${r.stderr}`);
  return { candidates: lines(r.stdout), stderr: r.stderr };
}

/** bash with real readline (an interactive bash on a pty, driven by zsh's zpty): the line after one Tab. */
export async function bashReadline(line: string, env: NodeJS.ProcessEnv): Promise<string> {
  const out = join(tempDir('cmdb-rl-'), 'line');
  const r = await run('zsh', ['-f', join(DRIVERS, 'bash-readline.zsh'), SCRIPT('bash'), out, line], env);
  if (r.code !== 0) throw new Error(`bash readline driver failed (${r.code}): ${r.stderr}`);
  return readFileSync(out, 'utf8');
}

/** zsh with real zle and compsys: the matches compadd accepted, and the line after one Tab. */
export async function zshComplete(
  line: string,
  env: NodeJS.ProcessEnv,
  watchdogMs?: number,
): Promise<Completed & { line: string }> {
  const out = tempDir('cmdb-zsh-');
  mkdirSync(out, { recursive: true });
  const r = await run('zsh', ['-f', join(DRIVERS, 'zsh.zsh'), SCRIPT('zsh'), out, line], env, watchdogMs);
  if (r.code !== 0) throw new Error(`zsh driver failed (${r.code}): ${r.stderr}`);
  return {
    candidates: lines(readFileSync(join(out, 'candidates'), 'utf8')),
    line: readFileSync(join(out, 'buffer'), 'utf8').replace(/\n$/, ''),
    stderr: r.stderr,
  };
}

/** fish: `complete -C`, the candidates without their descriptions. */
export async function fishComplete(line: string, env: NodeJS.ProcessEnv, watchdogMs?: number): Promise<Completed> {
  const r = await run(
    'fish',
    ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', SCRIPT('fish'), line],
    env,
    watchdogMs,
  );
  if (r.code !== 0) throw new Error(`fish failed (${r.code}): ${r.stderr}`);
  return { candidates: lines(r.stdout).map((l) => l.split('\t')[0]), stderr: r.stderr };
}
