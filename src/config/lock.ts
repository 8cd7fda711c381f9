// A lock file that lets one cmdb process at a time change a shared file or log in to a device; a
// holder that died or hung is taken over, a live one waited for (exit 8 after the wait).
import { closeSync, fstatSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { makePrivateDir, openPrivateFile } from '../files.js';
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

interface Holder {
  pid: number;
  host: string;
  /** Unique to one taking of the lock (absent in a lock being written). */
  nonce: string | null;
}

/**
 * Another cmdb process held the lock for longer than we may wait: exit 8, "temporarily blocked"
 * (nothing was changed; the remedy is to try again once it has finished), naming the file and holder.
 */
export class LockTimeoutError extends CmdbError {
  constructor(path: string, holder: Holder | null, seconds: number) {
    const who = holder
      ? `cmdb process (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`})`
      : 'cmdb process';
    super(
      `another ${who} holds ${path} and did not release it within ${seconds} s`,
      EXIT.BLOCKED,
      `try again when it has finished (CMDB_LOCK_TIMEOUT sets how many seconds to wait); ` +
        `if no cmdb runs any more, delete ${path}`,
    );
  }
}

function holderOf(text: string): Holder | null {
  const [pid, host, nonce] = text.split('\n');
  if (!/^\d+$/.test(pid ?? '') || !host) return null;
  return { pid: Number(pid), host, nonce: nonce && /^[0-9a-z]{1,40}$/.test(nonce) ? nonce : null };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One instance of a lock file as read at one moment: its content and the identity of the file. */
interface Snapshot {
  text: string;
  ino: number;
  mtimeMs: number;
  holder: Holder | null;
}

/**
 * The lock file as it is now (content and identity from the same open file), or null when there is
 * none. A lock this user cannot read (left by another user) has no holder: only its age can break it.
 */
function snapshot(path: string): Snapshot | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    try {
      const { ino, mtimeMs } = statSync(path);
      return { text: '', ino, mtimeMs, holder: null };
    } catch {
      return null;
    }
  }
  try {
    const { ino, mtimeMs } = fstatSync(fd);
    const text = readFileSync(fd, 'utf8');
    return { text, ino, mtimeMs, holder: holderOf(text) };
  } finally {
    closeSync(fd);
  }
}

/** The same file with the same content: a lock taken again since (even reusing the inode) differs in its nonce. */
function sameInstance(a: Snapshot, b: Snapshot): boolean {
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.text === b.text;
}

/**
 * A lock is stale when its holder is a process of this machine that no longer runs, or when it is
 * older than `staleMs` (a holder on another machine sharing the folder, or one that hung).
 */
function isStale(lock: Snapshot, staleMs: number): boolean {
  if (Date.now() - lock.mtimeMs > staleMs) return true;
  const holder = lock.holder;
  // A lock being written has no holder yet; only its age can make it stale.
  return holder !== null && holder.host === hostname() && holder.pid !== process.pid && !isAlive(holder.pid);
}

function newNonce(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** Creates `path` only if it does not exist, holding this process's id (and `nonce`). */
function createExclusive(path: string, nonce: string): boolean {
  let fd: number;
  try {
    fd = openPrivateFile(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n${hostname()}\n${nonce}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The claim on removing one instance of a lock: a file named after that instance (its nonce, else its
 * inode and time), created exclusively. Of all the processes that judged the same lock stale, and
 * its holder releasing it, exactly one gets the claim; every other one leaves that instance alone.
 */
function claimFile(path: string, lock: Snapshot): string {
  const id = lock.holder?.nonce ?? `${lock.ino}-${Math.floor(lock.mtimeMs)}`;
  return `${path}.${id}.claim`;
}

/**
 * Takes the claim on removing `lock`. A claim left by a process that died while holding it (it is
 * held for a few file operations only) is removed, and taken on a later round.
 */
function claim(file: string, staleMs: number): boolean {
  if (createExclusive(file, newNonce())) return true;
  const left = snapshot(file);
  if (left && isStale(left, Math.min(staleMs, 10_000))) {
    // Only a claim whose process died is removed here, and the instance it names is checked again
    // by whoever claims it next: a broken claim can at worst repeat a check.
    rmSync(file, { force: true });
  }
  return false;
}

/**
 * Removes the lock instance `judged`, if the lock file is still that instance: under its claim, so
 * that a lock taken afresh by someone else after it was broken is never removed by a process that
 * judged the old one stale (the race of two processes breaking the same stale lock).
 */
function removeInstance(path: string, judged: Snapshot, staleMs: number): void {
  const file = claimFile(path, judged);
  if (!claim(file, staleMs)) return;
  try {
    const now = snapshot(path);
    if (now && sameInstance(now, judged)) unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Runs `work` while holding the advisory lock file `path` (created 0600, in a 0700 folder), so that
 * cmdb processes running at once take turns: a read-modify-write of a shared file, or a device login.
 * Waits with a growing, jittered pause; a stale lock (see isStale) is broken. The lock is released
 * only if it is still the one this call took (it may have been broken as stale meanwhile).
 */
export async function withLock<T>(path: string, work: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const waitMs = options.waitMs ?? 60_000;
  makePrivateDir(dirname(path));
  const started = Date.now();
  const nonce = newNonce();
  let pause = 5;
  while (!createExclusive(path, nonce)) {
    const lock = snapshot(path);
    if (lock === null) continue;
    if (isStale(lock, staleMs)) {
      removeInstance(path, lock, staleMs);
      continue;
    }
    if (Date.now() - started > waitMs) throw new LockTimeoutError(path, lock.holder, Math.round(waitMs / 1000));
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 200);
  }
  try {
    return await work();
  } finally {
    const mine = snapshot(path);
    if (mine?.holder?.nonce === nonce && mine.holder.pid === process.pid) removeInstance(path, mine, staleMs);
  }
}

/** The lock file that guards `file`: beside it, named after it. */
export function lockFileFor(file: string): string {
  return `${file}.lock`;
}
