import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runContext, type Context, type GlobalOptions, type IO } from '../../src/run/context.js';
import { tempDir } from './temp.js';

export interface CapturedIO extends IO {
  out(): string;
  err(): string;
}

/** In-memory streams standing in for a terminal or a pipe. */
export function captureIO(options: { tty?: boolean; columns?: number; stdin?: string } = {}): CapturedIO {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => ((out += s), true), isTTY: options.tty ?? false, columns: options.columns ?? 80 },
    stderr: { write: (s: string) => ((err += s), true), isTTY: options.tty ?? false },
    stdin: Readable.from([options.stdin ?? '']) as IO['stdin'],
    out: () => out,
    err: () => err,
  };
}

/** A Context that fails if anything tries to reach a device, and never reads the developer's own profiles. */
export function offlineContext(options: GlobalOptions = {}, env: NodeJS.ProcessEnv = {}, io = captureIO()): Context {
  const isolated = { CMDB_CONFIG_DIR: join(tempDir('cmdb-offline-'), 'no-config'), ...env };
  return runContext(io, isolated, options, {
    connect: async () => {
      throw new Error('this test must not send anything');
    },
  });
}
