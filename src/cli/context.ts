import type { CmdbClient, Exchange } from '../api/client.js';
import { UsageError } from '../errors.js';
import { sanitizeMultiline } from '../output/text.js';
import { selectedProfile } from './profile.js';
import { decideColor, defaultFormat, formatNotice, formatWarning, OUTPUT_FORMATS, render, terminalFor, type OutputFormat, type RenderOptions, type Shaped, type Terminal } from '../output/index.js';

export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
}

/** Global options after commander parsing; each falls back to its environment variable (CLI.md). */
export interface GlobalOptions {
  device?: string;
  host?: string;
  vdom?: string;
  output?: string;
  raw?: boolean;
  caFile?: string;
  insecure?: boolean;
  timeout?: string;
  verbose?: boolean;
  color?: boolean;
  demo?: boolean;
  force?: boolean;
}

const VDOM_NAME = /^[A-Za-z0-9_.-]{1,31}$/;

export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Parses `root`, `a,b` or `*` into the list sent as `vdom=`. */
export function parseVdoms(value: string): string[] {
  const vdoms = value.split(',').map((v) => v.trim()).filter(Boolean);
  if (!vdoms.length) throw new UsageError(`invalid --vdom '${value}'`, "give a VDOM name, a comma-separated list (root,dmz) or '*' for all");
  if (vdoms.includes('*')) {
    if (vdoms.length > 1) throw new UsageError(`invalid --vdom '${value}': '*' stands alone`, "use '*' for all VDOMs, or list them");
    return ['*'];
  }
  for (const v of vdoms) {
    if (!VDOM_NAME.test(v)) throw new UsageError(`invalid VDOM name '${v}'`, 'VDOM names are letters, digits, _ . - (at most 31 characters)');
  }
  return vdoms;
}

/**
 * Everything a command needs, passed in: streams, environment, resolved options, and a lazy client.
 * Commands never write to streams or build URLs themselves.
 */
export class Context {
  private clientPromise: Promise<CmdbClient> | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(
    readonly io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly options: GlobalOptions,
    private readonly connect: (ctx: Context) => Promise<{ client: CmdbClient; close: () => Promise<void> }>,
  ) {}

  /** Checks the global options' values up front, so a bad one stops the command before anything is sent. */
  validateGlobals(): void {
    void this.explicitFormat;
    this.timeoutMs();
    if (this.options.vdom !== undefined || this.env.CMDB_VDOM) this.vdoms();
  }

  /** The format asked for with -o or CMDB_OUTPUT, or undefined. */
  get explicitFormat(): OutputFormat | undefined {
    const value = this.options.output ?? (this.env.CMDB_OUTPUT || undefined);
    if (value === undefined) return undefined;
    if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
      throw new UsageError(`unknown output format '${value}'`, `use one of ${OUTPUT_FORMATS.join(', ')}`);
    }
    return value as OutputFormat;
  }

  get format(): OutputFormat {
    return this.explicitFormat ?? defaultFormat(!!this.io.stdout.isTTY);
  }

  get verbose(): boolean {
    return !!this.options.verbose || truthy(this.env.CMDB_DEBUG);
  }

  get insecure(): boolean {
    return !!this.options.insecure || truthy(this.env.CMDB_INSECURE);
  }

  get demo(): boolean {
    return !!this.options.demo || truthy(this.env.CMDB_DEMO);
  }

  get force(): boolean {
    return !!this.options.force;
  }

  /**
   * The VDOMs of the device profile, when no flag or variable names any. Looked up here rather than
   * set by connect(): commands build their query (with vdom) before they ask for the client.
   */
  get profileVdom(): string | undefined {
    return this.demo ? undefined : selectedProfile(this)?.vdom;
  }

  /** Per-request timeout in milliseconds (flag, CMDB_TIMEOUT, then the profile's or 30 s). */
  timeoutMs(profileSeconds?: number): number {
    const raw = this.options.timeout ?? this.env.CMDB_TIMEOUT;
    if (raw === undefined || raw === '') return (profileSeconds ?? 30) * 1000;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`invalid timeout '${raw}'`, 'give a number of seconds greater than 0, for example --timeout 10');
    return Math.round(seconds * 1000);
  }

  /** VDOMs from --vdom, CMDB_VDOM or the profile; undefined means the device's management VDOM. */
  vdoms(): string[] | undefined {
    const value = this.options.vdom ?? (this.env.CMDB_VDOM || undefined) ?? this.profileVdom;
    return value === undefined ? undefined : parseVdoms(value);
  }

  colorFor(stream: OutStream): boolean {
    return decideColor(stream, this.env, this.options.color === false);
  }

  terminal(): Terminal {
    return terminalFor(this.io.stdout, this.env, this.options.color === false);
  }

  async client(): Promise<CmdbClient> {
    this.clientPromise ??= this.connect(this).then(({ client, close }) => {
      this.cleanups.push(close);
      return client;
    });
    return this.clientPromise;
  }

  async print(data: Shaped, options: Omit<RenderOptions, 'format' | 'terminal'> = {}): Promise<void> {
    const text = await render(data, { format: this.format, terminal: this.terminal(), ...options });
    if (text) this.io.stdout.write(text);
  }

  warn(message: string): void {
    this.io.stderr.write(formatWarning(message, this.colorFor(this.io.stderr)));
  }

  notice(message: string): void {
    this.io.stderr.write(formatNotice(message, this.colorFor(this.io.stderr)));
  }

  /** --verbose: one exchange on stderr; the api layer has already redacted credentials. */
  logExchange(ex: Exchange): void {
    const lines = [`> ${ex.method} ${ex.url}`];
    for (const [k, v] of Object.entries(ex.requestHeaders)) lines.push(`> ${k}: ${v}`);
    if (ex.requestBody) lines.push(`> ${ex.requestBody}`);
    if (ex.error) lines.push(`< failed after ${ex.durationMs} ms: ${ex.error}`);
    else {
      lines.push(`< ${ex.status} (${ex.durationMs} ms)`);
      for (const [k, v] of Object.entries(ex.responseHeaders ?? {})) lines.push(`< ${k}: ${Array.isArray(v) ? v.join(' | ') : v}`);
      const body = ex.responseBody ?? '';
      if (body) lines.push(`< ${body.length > 4096 ? `${body.slice(0, 4096)}… (${body.length} bytes)` : body}`);
    }
    // Device headers and bodies may hold escape sequences: shown, never obeyed.
    this.io.stderr.write(sanitizeMultiline(lines.join('\n')) + '\n');
  }

  onClose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}
