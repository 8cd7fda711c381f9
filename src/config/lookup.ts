// The keychain's child processes (the platform's native tool, and the Node helper of secrets.ts), and
// the early start of a read: a run that will need a saved credential from the keychain starts reading
// it as soon as it knows which (a Tab on a key cache miss, before the program loads; main() once the
// command line is read: device/early.ts), so that the child runs while the rest of the program and
// the HTTP stack load, and the store's read takes it over. Kept small and free of the rest of the
// config layer: the Tab path (dist/src/bundle/complete.cjs) loads it before the program.
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

/** The keychain service every cmdb secret is filed under. */
export const KEYCHAIN_SERVICE = 'cmdb';

/** The account of a device's credential (API token or password) in the store. */
export function credentialAccount(device: string): string {
  return device;
}

/** The account of a device's login session (cookies and CSRF token); `/` never occurs in device names. */
export function sessionAccount(device: string): string {
  return `${device}/session`;
}

/**
 * The platform's own keychain tool, when it has one the store can read with: on Linux libsecret's
 * `secret-tool`, which finds what @napi-rs/keyring files under the Secret Service (attributes
 * `service` and `username`, label `keyring:<account>@<service>`). A native program starts in a
 * fraction of the time of a Node helper.
 */
export function nativeTool(platform: NodeJS.Platform): string | null {
  return platform === 'linux' ? 'secret-tool' : null;
}

/**
 * The native tool's arguments for one read: it prints the secret and exits 0, or exits 1 silently when there is none.
 */
export function lookupArgs(account: string): string[] {
  return ['lookup', 'service', KEYCHAIN_SERVICE, 'username', account];
}

/**
 * node:child_process, loaded at the first keychain call: connect() loads the store for every device,
 * most of which get their secret elsewhere (CMDB_TOKEN, credentials.yaml), and it costs ~10 ms.
 */
function childProcess(): typeof import('node:child_process') {
  return createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
}

/** How a keychain child process ended: its exit code and what it printed. */
export interface ToolRun {
  code: number | null;
  out: Buffer;
  err: string;
}

/** The child did not end within the timeout, and was killed (the store says so in its own words). */
export const TIMED_OUT = Symbol('timed out');

/** What became of a child: how it ended, the error when it could not be started, or TIMED_OUT. */
export type Ended = ToolRun | Error | typeof TIMED_OUT;

/** A child under way; `keepAlive` decides whether it keeps the process running until it ends. */
interface Running {
  ended: Promise<Ended>;
  keepAlive(on: boolean): void;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, input?: string): Running {
  const child: ChildProcess = childProcess().spawn(command, args, {
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<Ended>((resolve) => {
    const out: Buffer[] = [];
    let err = '';
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(TIMED_OUT);
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(out), err });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
  const keepAlive = (on: boolean) => {
    for (const handle of [child, child.stdout, child.stderr, timer]) {
      const h = handle as { ref?(): unknown; unref?(): unknown } | null | undefined;
      if (on) h?.ref?.();
      else h?.unref?.();
    }
  };
  return { ended, keepAlive };
}

/**
 * A keychain child process, killed at the timeout; `input` goes to its stdin (a secret never goes in
 * argv). A read of the native tool started early with the same arguments (and bus) is taken over
 * instead of starting another.
 */
export function runChild(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  input?: string,
): Promise<Ended> {
  return takeEarly(command, args, env) ?? start(command, args, env, timeoutMs, input).ended;
}

/** The read started early, shared by the bundle files of one process (each has its own copy of this module). */
interface Early {
  command: string;
  args: string[];
  bus: string | undefined;
  running: Running;
}
const slot = globalThis as { cmdbEarlyLookup?: Early | null };

/**
 * Starts the native tool's read of an account now, for a part of the program loaded later to take
 * over; once per process, and only where there is such a tool. Until it is taken, the read does not
 * keep the process alive: a run that ends without it (an error before the device is reached) ends as
 * it would have, even with a keychain that never answers.
 */
export function startEarlyLookup(account: string, env: NodeJS.ProcessEnv, timeoutMs: number): void {
  const command = nativeTool(process.platform);
  if (slot.cmdbEarlyLookup !== undefined || !command) return;
  const args = lookupArgs(account);
  const running = start(command, args, env, timeoutMs);
  running.keepAlive(false);
  slot.cmdbEarlyLookup = { command, args, bus: env.DBUS_SESSION_BUS_ADDRESS, running };
}

function takeEarly(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ended> | null {
  const early = slot.cmdbEarlyLookup;
  if (
    !early ||
    early.command !== command ||
    early.args.join('\0') !== args.join('\0') ||
    early.bus !== env.DBUS_SESSION_BUS_ADDRESS
  )
    return null;
  // Once: a later read of the same account (after a change) asks the keychain again.
  slot.cmdbEarlyLookup = null;
  early.running.keepAlive(true);
  return early.running.ended;
}
