// Preloaded with --import into the built CLI by the lock race tests: it makes cmdb processes that run at
// once meet at their first look at a lock file (CMDB_RACE_BARRIER=<file>:<count>), widens the windows in
// which they can interleave (a pause after every look at a lock file and inside the read-modify-write of
// a shared file), and records every write of a shared file made while the lock beside it names another
// process (two holders at once) in CMDB_RACE_LOG.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const log = process.env.CMDB_RACE_LOG;
const cell = new Int32Array(new SharedArrayBuffer(4));

/** A synchronous pause (the lock code is synchronous between its awaits). */
function pause(maxMs: number): void {
  Atomics.wait(cell, 0, 0, Math.random() * maxMs);
}

const isLock = (path: unknown): boolean => typeof path === 'string' && /\.lock$/.test(path);
const isShared = (path: unknown): boolean => typeof path === 'string' && /\/(config|credentials)\.yaml$/.test(path);

const { openSync, readFileSync, renameSync } = fs;

let waited = false;

/** Waits (at most 20 s) until `count` processes have reached their first lock. */
function barrier(): void {
  if (waited || !process.env.CMDB_RACE_BARRIER) return;
  waited = true;
  const [file, count] = process.env.CMDB_RACE_BARRIER.split(':');
  fs.appendFileSync(file, `${process.pid}\n`);
  const until = Date.now() + 20_000;
  while (
    Date.now() < until &&
    (readFileSync(file, 'utf8') as string).split('\n').filter(Boolean).length < Number(count)
  )
    Atomics.wait(cell, 0, 0, 5);
}

fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
  if (isLock(path)) barrier();
  const fd = (openSync as (...a: unknown[]) => number)(path, ...rest);
  if (isLock(path)) pause(15);
  return fd;
}) as typeof fs.openSync;

fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
  if (isLock(path)) barrier();
  const text = (readFileSync as (...a: unknown[]) => string | Buffer)(path, ...rest);
  if (isLock(path) || isShared(path)) pause(15);
  return text;
}) as typeof fs.readFileSync;

fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
  if (log && isShared(to)) {
    let holder = '';
    try {
      holder = (readFileSync(`${String(to)}.lock`, 'utf8') as string).split('\n')[0];
    } catch {
      holder = 'none';
    }
    if (holder !== String(process.pid))
      fs.appendFileSync(log, `${process.pid} wrote ${String(to)} while the lock named ${holder}\n`);
  }
  renameSync(from, to);
}) as typeof fs.renameSync;

syncBuiltinESMExports();
