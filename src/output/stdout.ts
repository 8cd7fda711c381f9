// Writing a whole answer to file descriptor 1 without setting up process.stdout (its stream costs
// ~15% of a short run piped to a script): the quick answers of cli/quick.ts and of Tab completion.
import { writeSync } from 'node:fs';

/** Writes the text to stdout; a reader that stops early (`cmdb --help | head -1`) ends the run quietly. */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (err) {
    // As processIO(): a reader that stops early ends the run quietly.
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    // A non-blocking stdout that is full: the rest through the stream, which waits for it.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
    process.stdout.write(bytes.subarray(written));
  }
}
