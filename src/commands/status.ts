// `cmdb status`: the device at a glance (hostname, serial, version, model).
import type { CallResult } from '../api/client.js';
import type { Context } from '../run/context.js';
import type { Row } from '../output/index.js';

/**
 * `{hostname, serial, version, build, model}` (and `uptime` where the device gives it) from `monitor/system/status`.
 */
export function deviceStatus(res: CallResult): Row {
  const envelope = res.json?.envelopes[0] ?? {};
  const results = (
    envelope.results && typeof envelope.results === 'object' && !Array.isArray(envelope.results) ? envelope.results : {}
  ) as Record<string, unknown>;
  const first = (...values: unknown[]) =>
    values.find((v) => (typeof v === 'string' && v !== '') || typeof v === 'number') ?? null;
  const model = first(
    results.model,
    [results.model_name, results.model_number].filter((v) => typeof v === 'string' && v).join(' '),
  );
  const uptime = first(results.uptime, envelope.uptime);
  return {
    hostname: first(results.hostname),
    serial: first(envelope.serial, results.serial),
    version: first(envelope.version, results.version),
    build: first(envelope.build, results.build),
    model,
    ...(uptime === null ? {} : { uptime }),
  };
}

/** `cmdb status`: the device at a glance; one row per device in a table. */
export async function run(ctx: Context): Promise<number> {
  const answer = await (await ctx.device().client()).call({ method: 'GET', path: 'monitor/system/status' });
  const status = deviceStatus(answer);
  await ctx.out.print({
    kind: 'forPeople',
    data: { kind: 'object', object: status },
    table: { kind: 'list', rows: [status] },
    tableView: { rowPerDevice: true },
    body: answer.json?.body,
  });
  return 0;
}
