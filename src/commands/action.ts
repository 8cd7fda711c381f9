import type { Context } from '../cli/context.js';
import { parseMkey, resolveTable, vdomQuery } from '../request/table.js';
import { printRead, send } from './shared.js';

/** The read actions of SPEC.md E1/E2, one command each: `cmdb schema <table>` → `?action=schema`. */
export const READ_ACTIONS = {
  schema: 'schema',
  defaults: 'default',
  meta: 'meta',
  revision: 'revision',
  transactions: 'transaction-list',
} as const;

export type ReadActionCommand = keyof typeof READ_ACTIONS;

/** The run() of one read action. Metadata reads are not catalogue operations, so they are sent for any table. */
export function readAction(command: ReadActionCommand) {
  return async (ctx: Context, { table: tableInput, key }: { table: string; key?: string }): Promise<number> => {
    const table = resolveTable(ctx, tableInput);
    const mkey = key === undefined ? undefined : parseMkey(table, key);
    const result = await send(ctx, table, { method: 'GET', mkey, query: { ...vdomQuery(ctx), action: READ_ACTIONS[command] } });
    const results = result.envelopes[0]?.results;
    await printRead(ctx, table, result, !Array.isArray(results));
    return 0;
  };
}
