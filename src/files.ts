// The one writer of files and folders: private (0700 folders, 0600 files) whatever the umask, written
// whole or not at all.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

// The one writer of files and folders: everything cmdb creates on disk (profiles, secrets, caches,
// exports, locks, the editor's file, spools, the emulator's state) is made here, private to the user
// whatever the umask: folders 0700, files 0600. The modes are set after creation (chmod), because a
// umask can only take bits away from what mkdir and open are asked for.

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
/** Folders already named in a warning: a run over many devices says it once. */
const warned = new Set<string>();

/** Says something the user should know about a write (an existing folder others can read). */
export type Warn = (message: string) => void;

/**
 * Creates `dir` and any missing parents as 0700. A folder that already exists is left as it is;
 * with `warn`, one that others (group or world) can read is named.
 */
export function makePrivateDir(dir: string, warn?: Warn): void {
  const target = resolve(dir);
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR });
  if (first === undefined) {
    if (warn && !warned.has(target) && (statSync(target).mode & 0o044) !== 0) {
      warned.add(target);
      warn(
        `the folder ${dir} already exists and other users can read it; ` +
          `the files cmdb writes there are private (0600), but their names are not (chmod 700 ${dir})`,
      );
    }
    return;
  }
  // mkdir returns the first folder it created: every folder from there down to `target` is new.
  for (let folder = target; ; folder = dirname(folder)) {
    chmodSync(folder, PRIVATE_DIR);
    if (folder === resolve(first) || folder === dirname(folder)) break;
  }
}

/** A new private folder under `parent` named `<prefix>XXXXXX` (mkdtemp), 0700. */
export function makePrivateTempDir(parent: string, prefix: string): string {
  const dir = mkdtempSync(resolve(parent, prefix));
  chmodSync(dir, PRIVATE_DIR);
  return dir;
}

/** Opens a file for writing as 0600 (`wx`: only if it does not exist), whatever mode it had. */
export function openPrivateFile(path: string, flags: 'w' | 'wx' | 'wx+'): number {
  const fd = openSync(path, flags, PRIVATE_FILE);
  try {
    fchmodSync(fd, PRIVATE_FILE);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/**
 * Writes a file so that no reader ever sees half of it and no other user can read it: a 0600 temp
 * file in the same folder (so rename is atomic), flushed to disk, then renamed over the old one; its
 * folder is made as makePrivateDir makes it. `durable: false` skips the flush, for a file that is
 * only a cache (a crash may lose it, and its reader takes anything unreadable for a miss): a flush
 * took ~1 ms, and tens under disk load.
 */
export function writePrivateFile(
  path: string,
  text: string | Uint8Array,
  { durable = true, warn }: { durable?: boolean; warn?: Warn } = {},
): void {
  makePrivateDir(dirname(path), warn);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openPrivateFile(tmp, 'w');
  try {
    if (typeof text === 'string') writeSync(fd, text);
    else for (let at = 0; at < text.length; ) at += writeSync(fd, text, at);
    if (durable) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
