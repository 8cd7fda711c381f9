import type { Context } from '../cli/context.js';
import { readBodies, withInlineBody, type BodyOptions } from '../request/body.js';
import { bulkItem, mapConcurrent, parseConcurrency } from '../request/bulk.js';
import { requireOperation, resolveTable, vdomQuery } from '../request/table.js';
import { printBulk, printWrite, send } from './shared.js';

export interface CreateOptions extends BodyOptions {
  concurrency?: string;
}

/** `cmdb create <table> [body]`: E3; an array body creates every element concurrently. */
export async function run(ctx: Context, tableInput: string, inlineBody: string | undefined, opts: CreateOptions): Promise<number> {
  const table = resolveTable(ctx, tableInput);
  requireOperation(ctx, table, 'C');
  const concurrency = parseConcurrency(opts.concurrency);
  const { bodies, many } = await readBodies(ctx, table, withInlineBody(opts, inlineBody), true);
  const query = vdomQuery(ctx);
  const keyOf = (body: Record<string, unknown>) => (table.key && table.key in body ? (body[table.key] as string | number) : undefined);
  if (!many) {
    const result = await send(ctx, table, { method: 'POST', query, body: bodies[0] });
    await printWrite(ctx, result, 'created', table, keyOf(bodies[0]));
    return 0;
  }
  const outcomes = await mapConcurrent(bodies, concurrency, (body) => bulkItem(keyOf(body) ?? null, () => send(ctx, table, { method: 'POST', query, body })));
  return printBulk(ctx, table, 'created', outcomes);
}
