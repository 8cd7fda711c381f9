import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../emulator/index.js';

export interface EmulatorCommandOptions {
  host?: string;
  port?: number;
  tls?: boolean;
  state?: string;
  seed?: 'demo' | 'empty';
  vdoms?: string[];
  json: boolean;
}

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Fingerprints are shown to people as colon-separated uppercase hex pairs. */
function humanFingerprint(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(':');
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function printForPeople(emulator: RunningEmulator, caFile: string | null, state: string | undefined, io: Io): void {
  const line = emulator.startLine();
  const exports = [`CMDB_HOST=${shellQuote(line.url)}`, `CMDB_TOKEN=${shellQuote(line.token)}`, ...(caFile ? [`CMDB_CA_FILE=${shellQuote(caFile)}`] : [])];
  const rows = [
    ['url', line.url],
    ['vdoms', line.vdoms.join(', ')],
    ['API token', line.token],
    ['username', line.username],
    ['password', line.password],
    ...(line.fingerprint ? [['fingerprint', humanFingerprint(line.fingerprint)]] : []),
    ...(caFile ? [['certificate', caFile]] : []),
    ...(state ? [['state file', state]] : []),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  io.stdout.write(
    `cmdb emulator: an emulated device (release 6.4.14) is listening.\n\n` +
      rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n') +
      `\n\nUse it from another shell:\n\n  export ${exports.join(' ')}\n\n`,
  );
  io.stderr.write('Serving until Ctrl-C (SIGINT) or SIGTERM.\n');
}

function reportFailure(error: unknown, opts: EmulatorCommandOptions, io: Io): number {
  const code = (error as NodeJS.ErrnoException).code;
  const exit = code && LISTEN_ERRORS.has(code) ? 2 : 1;
  const message = `cannot start the emulator: ${error instanceof Error ? error.message : String(error)}`;
  const hint = exit === 2 ? 'choose another --port or --host' : 'check the --state file';
  io.stderr.write(opts.json ? `${JSON.stringify({ error: { exit, status: null, code: null, message, hint } })}\n` : `cmdb: ${message}\n${hint}\n`);
  return exit;
}

/**
 * `cmdb emulator`: starts the emulated device, prints its start line (one
 * compact JSON line with `json`), serves until SIGINT/SIGTERM, then closes.
 */
export async function emulatorCommand(opts: EmulatorCommandOptions, io: Io): Promise<number> {
  const { startEmulator } = await import('../emulator/index.js');
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ host: opts.host, port: opts.port, tls: opts.tls, stateFile: opts.state, seed: opts.seed, vdoms: opts.vdoms, recordRequests: false });
  } catch (error) {
    return reportFailure(error, opts, io);
  }
  const stopped = waitForSignal();
  let caFile: string | null = null;
  if (opts.json) {
    io.stdout.write(`${JSON.stringify(emulator.startLine())}\n`);
  } else {
    if (emulator.certPem) {
      caFile = join(tmpdir(), `cmdb-emulator-${new URL(emulator.url).port}.pem`);
      writeFileSync(caFile, emulator.certPem);
    }
    printForPeople(emulator, caFile, opts.state, io);
  }
  await stopped;
  await emulator.close();
  if (caFile) rmSync(caFile, { force: true });
  return 0;
}
