// A private, real Secret Service for the keychain tests: its own D-Bus session bus and an unlocked
// gnome-keyring in a throwaway HOME, so the tests never touch the user's keyring.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { KeychainStore } from '../../src/config/secrets.js';
import { isolatedEnv } from './cli.js';

const BINARIES = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'];
const PACKAGES = 'apt-get install dbus gnome-keyring';

function missingBinaries(): string[] {
  const dirs = (process.env.PATH ?? '').split(delimiter);
  return BINARIES.filter((name) => !dirs.some((dir) => existsSync(join(dir, name))));
}

function inCI(): boolean {
  return !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
}

/**
 * Why a keychain suite cannot run here, or false. Locally a missing binary skips the suite with this
 * message; in CI (CI=true) the suite runs and startKeyring fails it instead.
 */
export function keyringSkip(): string | false {
  const missing = missingBinaries();
  if (!missing.length || inCI()) return false;
  return `${missing.join(', ')} not installed (${PACKAGES}): the real Secret Service tests are skipped`;
}

export interface PrivateKeyring {
  /** HOME, XDG folders and DBUS_SESSION_BUS_ADDRESS for the child processes that use it. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

function firstLine(child: ChildProcess, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no address within ${timeoutMs} ms: ${err}`)),
      timeoutMs,
    );
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0].trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}): ${err}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** True once a name is owned on the bus (asked without activating anything). */
function hasOwner(env: NodeJS.ProcessEnv, name: string): boolean {
  const r = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      `string:${name}`,
    ],
    { env, encoding: 'utf8' },
  );
  return /boolean true/.test(r.stdout ?? '');
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `dbus-daemon --session` and `gnome-keyring-daemon --unlock --components=secrets` (password on stdin). */
export async function startKeyring(): Promise<PrivateKeyring> {
  const missing = missingBinaries();
  if (missing.length)
    throw new Error(`${missing.join(', ')} missing: the keychain tests need a real Secret Service (${PACKAGES})`);
  const base = isolatedEnv();
  const runtime = join(base.HOME!, 'run');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  Object.assign(base, { XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: join(base.HOME!, '.local/share') });
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    env: base,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const processes: ChildProcess[] = [bus];
  const stop = async () => {
    for (const child of processes.reverse()) await stopProcess(child);
  };
  try {
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: await firstLine(bus, 'dbus-daemon', 10_000) };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    processes.push(keyring);
    keyring.stdin!.end('throwaway-keyring-password');
    await until(() => hasOwner(env, 'org.freedesktop.secrets'), 'gnome-keyring to own org.freedesktop.secrets');
    const store = new KeychainStore(env, 10_000);
    await until(
      () =>
        store.get('cmdb-test-probe').then(
          () => true,
          () => false,
        ),
      'the Secret Service to answer',
    );
    return { env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
