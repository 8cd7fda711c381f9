// `cmdb backup`: the device's whole configuration text, on stdout or in a file.
import { join } from 'node:path';
import { isUtf8 } from 'node:buffer';
import type { CallResult, CmdbClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Context } from '../run/context.js';
import { fileProblem } from '../config/files.js';
import { writePrivateFile } from '../files.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import { interruptedReport } from '../run/hints.js';
import { deviceFileName } from './common/request.js';

export interface BackupOptions {
  scope?: 'global' | 'vdom';
  file?: string;
  dir?: string;
}

const BACKUP_PATH = 'monitor/system/config/backup';

/** Releases from which the device takes the backup as a POST (and refuses the GET): 7.6 (PROTOCOL.md). */
export function backupByPost(version: unknown): boolean {
  const match = typeof version === 'string' ? /^v?(\d+)\.(\d+)/.exec(version) : null;
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 7 || (major === 7 && minor >= 6);
}

/** The release the device reports (`version` of `monitor/system/status`), to choose the backup's form. */
async function release(client: CmdbClient, signal: AbortSignal | undefined): Promise<unknown> {
  const status = await client.call({ method: 'GET', path: 'monitor/system/status', signal });
  return status.json?.envelopes[0]?.version;
}

/** The configuration text: GET, or POST where the release takes it so; the other form after a 405. */
async function download(
  client: CmdbClient,
  scope: 'global' | 'vdom',
  vdom: string | undefined,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  const inVdom: [string, string][] = vdom ? [['vdom', vdom]] : [];
  const byGet = () => client.call({ method: 'GET', path: BACKUP_PATH, query: [['scope', scope], ...inVdom], signal });
  const byPost = () =>
    client.call({
      method: 'POST',
      path: BACKUP_PATH,
      query: inVdom,
      body: { destination: 'file', scope, ...(vdom ? { vdom } : {}) },
      signal,
    });
  const post = backupByPost(await release(client, signal));
  try {
    return await (post ? byPost() : byGet());
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 405) throw err;
    return post ? byGet() : byPost();
  }
}

/** The answer must be the configuration's text: not JSON, not empty, not binary (exit 9, no file). */
function configText(res: CallResult): Buffer {
  const problem = res.json
    ? 'JSON instead of the configuration text'
    : !res.bytes.toString('utf8').trim()
      ? 'nothing'
      : !isUtf8(res.bytes) || res.bytes.includes(0)
        ? 'data that is not text'
        : null;
  if (problem)
    throw new CmdbError(
      `the device answered the configuration backup with ${problem} (HTTP ${res.status})`,
      EXIT.DEVICE,
      'nothing was written; check that the administrator may read the whole configuration, ' +
        'and the API prefix of the device',
    );
  return res.bytes;
}

/**
 * `cmdb backup`: the device's full configuration, exactly as it sent it, on stdout or in a file written
 * atomically (0600); an interrupted download writes nothing.
 */
export async function run(ctx: Context, _args: object, opts: BackupOptions): Promise<number> {
  const scope = opts.scope ?? 'global';
  if (opts.file !== undefined && opts.dir !== undefined) throw new UsageError('give --file or --dir, not both');
  if (ctx.several && opts.dir === undefined)
    throw new UsageError(
      'a backup of several devices needs --dir',
      'give --dir DIR: each device is written to DIR/<device>.conf',
    );
  const vdoms = ctx.device().vdoms;
  if (scope === 'vdom' && vdoms && (vdoms.length > 1 || vdoms[0] === '*'))
    throw new UsageError('--scope vdom saves one VDOM', 'name it with --vdom NAME (default: the management VDOM)');
  const destination = opts.file ?? (opts.dir !== undefined ? join(opts.dir, deviceFileName(ctx, 'conf')) : undefined);
  const client = await ctx.device().client();
  if (destination !== undefined) ctx.record.files ??= [];
  // Into a file: an interrupt stops the download, nothing is written, and the run says so (to stdout,
  // it ends the run as usual).
  const interrupt = destination === undefined ? undefined : ctx.signals.interruptible();
  const stopped = () => {
    const code = interrupt?.exitCode();
    if (code === undefined) return undefined;
    const { message } = interruptedReport({ partial: ctx.out.endPartial(), files: ctx.record.files });
    return new CmdbError(message, code);
  };
  let text: Buffer;
  try {
    text = configText(await download(client, scope, scope === 'vdom' ? vdoms?.[0] : undefined, interrupt?.signal));
  } catch (err) {
    throw stopped() ?? err;
  } finally {
    interrupt?.release();
  }
  const stop = stopped();
  if (stop) throw stop;
  if (destination === undefined) {
    await ctx.out.print({ kind: 'answer', data: null, body: null, bytes: text });
    return EXIT.OK;
  }
  try {
    writePrivateFile(destination, text);
  } catch (err) {
    throw new UsageError(
      `cannot write ${destination}: ${fileProblem(err)}`,
      'choose a file in a folder you may write to',
    );
  }
  ctx.record.files?.push(destination);
  ctx.out.notice(`wrote ${destination} (${text.length} bytes)`);
  return EXIT.OK;
}
