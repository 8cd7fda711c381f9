// Commands run in-process against a device stand-in: a Context whose device is a CmdbClient on
// undici's MockAgent. Every request the command sends is recorded; nothing leaves the process.
import { MockAgent } from 'undici';
import { checkFormat, runContext, type Context, type GlobalOptions } from '../../src/run/context.js';
import { COMMANDS } from '../../src/commands/registry.js';
import type { Run } from '../../src/commands/define.js';
import { describeError } from '../../src/run/hints.js';
import { captureIO } from './io.js';
import { tempDir } from './temp.js';

export const DEVICE = 'https://fw.example';

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

type Reply = { status: number; body: unknown };

/**
 * A Context on a MockAgent device that answers `handler(request)`. The environment is isolated (its
 * own profile folder) and names the device with an API token unless `env` says otherwise.
 */
/** A request that fails on the way (`error` as undici would raise it: a timeout, a reset), `times` times, before the device sees it. */
export interface Fault {
  method: string;
  path: (path: string) => boolean;
  error: Error;
  times?: number;
}

export function mockDevice(
  handler: (req: Sent) => Reply,
  options: { globals?: GlobalOptions; env?: NodeJS.ProcessEnv; tty?: boolean; stdin?: string; faults?: Fault[] } = {},
) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sent: Sent[] = [];
  // Matched first, so each fault takes its request before the device does.
  for (const fault of options.faults ?? []) {
    agent
      .get(DEVICE)
      .intercept({ path: fault.path, method: fault.method })
      .replyWithError(fault.error)
      .times(fault.times ?? 1);
  }
  agent
    .get(DEVICE)
    .intercept({ path: () => true, method: () => true })
    .reply((req) => {
      const headers = Object.fromEntries(
        Object.entries((req.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      const request: Sent = {
        method: req.method,
        path: req.path,
        headers,
        body: typeof req.body === 'string' ? req.body : undefined,
      };
      sent.push(request);
      const { status, body } = handler(request);
      return {
        statusCode: status,
        data: typeof body === 'string' ? body : JSON.stringify(body),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  const io = captureIO({ tty: options.tty, stdin: options.stdin });
  const env = { CMDB_CONFIG_DIR: tempDir('cmdb-inproc-'), CMDB_HOST: DEVICE, CMDB_TOKEN: 'test-token', ...options.env };
  const ctx = runContext(io, env, options.globals ?? {}, { dispatcher: agent });
  return { ctx, io, env, sent, agent };
}

/** Runs a command of the registry as main() would (arguments and options as commander hands them), returning its exit code. */
export async function runCommand(
  ctx: Context,
  command: string,
  args: object = {},
  options: object = {},
): Promise<number> {
  const [parent, name] = command.includes(' ') ? command.split(' ') : [undefined, command];
  const def = COMMANDS.find((c) => c.signature.split(' ')[0] === name && c.parent === parent);
  if (!def) throw new Error(`no command '${command}' in the registry`);
  try {
    checkFormat(ctx.settings, def.output, !!ctx.io.stdout.isTTY);
    return await ((await def.load()) as Run<object, object>)(ctx, args, options);
  } catch (err) {
    const shown = describeError(err);
    // As main() prints it: one JSON line when json, yaml or ndjson was asked for.
    ctx.out.error(shown, ctx.settings.machineErrors);
    return shown.exit;
  } finally {
    await ctx.close();
  }
}
