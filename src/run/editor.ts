// The user's editor ($VISUAL, $EDITOR, else vi) on a private temporary file.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import { makePrivateTempDir, writePrivateFile } from '../files.js';
import type { IO } from '../output/index.js';

/**
 * Opens `text` in the user's editor (`$VISUAL`, `$EDITOR`, else `vi`) and returns what was saved.
 * The file is private (0600, in a folder of its own) and deleted afterwards. An editor set in the
 * environment runs without a terminal too (a script as editor); `vi` needs one.
 */
export async function editText(io: IO, editor: string | undefined, text: string, name: string): Promise<string> {
  if (!editor && !io.stdin.isTTY)
    throw new UsageError(
      'stdin is not a terminal, so cmdb cannot open vi',
      'set VISUAL or EDITOR to an editor (or a script) that works without one',
    );
  const command = editor ?? 'vi';
  const dir = makePrivateTempDir(tmpdir(), 'cmdb-edit-');
  const file = join(dir, name);
  try {
    writePrivateFile(file, text, { durable: false });
    // Through the shell, as git does: the variable may hold arguments (`code --wait`).
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'cmdb-edit', file], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0)
      throw new CmdbError(
        `the editor (${command}) exited with ${code === null ? 'a signal' : `code ${code}`}: nothing was sent`,
        EXIT.USAGE,
      );
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
