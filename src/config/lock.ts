import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CmdbError, EXIT } from '../errors.js';

export interface LockOptions {
  /** A lock older than this is abandoned, whoever holds it (default 30 s). */
  staleMs?: number;
  /** How long to wait for another process before giving up (default 60 s). */
  waitMs?: number;
}

/** Another cmdb process held the lock for longer than we may wait. */
export class LockTimeoutError extends CmdbError {
  constructor(path: string, seconds: number) {
    super(`another cmdb process has held ${path} for more than ${seconds} s`, EXIT.INTERNAL, `if no other cmdb runs, delete ${path}`);
  }
}

interface Holder {
  pid: number;
  host: string;
}

function holderOf(text: string): Holder | null {
  const [pid, host] = text.split('\n');
  return /^\d+$/.test(pid ?? '') && host ? { pid: Number(pid), host } : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock is stale when its holder is a process of this machine that no longer runs, or when it is
 * older than `staleMs` (a holder on another machine sharing the folder, or one that hung).
 */
function isStale(path: string, staleMs: number): boolean {
  let text: string;
  let age: number;
  try {
    text = readFileSync(path, 'utf8');
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (age > staleMs) return true;
  const holder = holderOf(text);
  // A lock being written has no holder yet; only its age can make it stale.
  return holder !== null && holder.host === hostname() && holder.pid !== process.pid && !isAlive(holder.pid);
}

function tryAcquire(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n${hostname()}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Moves a stale lock aside (rename is atomic: of two processes breaking it, one wins) and deletes it. */
function breakStale(path: string): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
    rmSync(aside, { force: true });
  } catch {
    // Someone else broke it first.
  }
}

/**
 * Runs `work` while holding the advisory lock file `path` (created 0600, in a 0700 folder), so that
 * cmdb processes running at once take turns: a read-modify-write of a shared file, or a device login.
 * Waits with a growing, jittered pause; a stale lock (see isStale) is broken.
 */
export async function withLock<T>(path: string, work: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const waitMs = options.waitMs ?? 60_000;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const started = Date.now();
  let pause = 5;
  while (!tryAcquire(path)) {
    if (isStale(path, staleMs)) {
      breakStale(path);
      continue;
    }
    if (Date.now() - started > waitMs) throw new LockTimeoutError(path, Math.round(waitMs / 1000));
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 200);
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

/** The lock file that guards `file`: beside it, named after it. */
export function lockFileFor(file: string): string {
  return `${file}.lock`;
}
