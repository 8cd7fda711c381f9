// `cmdb refs`: where an object is used (CLI.md "References between tables"): one row per object and
// top-level field that names it, from the device's usage query where it answers, else by reading the
// tables that can name it, in every VDOM asked.
import { CmdbError, EXIT } from '../errors.js';
import type { Context } from '../run/context.js';
import type { Row } from '../output/index.js';
import { keysHint, parseMkey, requireKeyed } from '../request/table.js';
import { lineTable, rowsView, vdomsFor, type ShownOptions } from './common/request.js';
import { objectsAt, usersOfObjects } from './common/users.js';

/** The columns of `refs` (and its JSON's fields). */
const REFS_COLUMNS = ['vdom', 'table', 'key', 'field'] as const;

/** `cmdb refs <table> <key>`: the objects that name it; nothing: no output, exit 0; a key the table lacks: exit 6. */
export async function run(
  ctx: Context,
  { table: tableInput, key }: { table: string; key: string },
  opts: ShownOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireKeyed(table, 'refs');
  const view = rowsView(REFS_COLUMNS, 'table', opts);
  const vdoms = vdomsFor(ctx, table);
  const mkey = parseMkey(table, key, { vdoms });
  const at = await objectsAt(ctx, table, mkey, vdoms);
  if (!at.length)
    throw new CmdbError(
      `${table.path} ${JSON.stringify(String(mkey))} not found${vdoms ? ` in vdom ${vdoms.join(',')}` : ''}`,
      EXIT.NOT_FOUND,
      keysHint(table.path, vdoms),
    );
  const found = await usersOfObjects(ctx, at);
  for (const u of found.unread)
    ctx.out.notice(`${u.table} could not be read: the objects in it that name ${key} are not listed`);
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const users of found.users)
    for (const u of users ?? []) {
      const id = JSON.stringify([u.vdom, u.table, u.key, u.field]);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push({ vdom: u.vdom, table: u.table, key: u.key, field: u.field });
    }
  await ctx.out.print({ kind: 'list', rows }, view);
  return EXIT.OK;
}
