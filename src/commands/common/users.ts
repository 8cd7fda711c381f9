// Where an object is, and who names it, for the commands that show it (`refs`, `delete`'s question and
// checks, the explanation of a -23 refusal): the object read in each VDOM asked, its users from
// src/plan/users.ts (the device's usage query, else the tables that can name it).
import { ApiError } from '../../api/errors.js';
import { isGlobal, type TableDef } from '../../catalogue/index.js';
import type { ObjectAt } from '../../plan/references/index.js';
import { findUsers, type FoundUsers } from '../../plan/users.js';
import { vdomQuery } from '../../request/table.js';
import type { Context } from '../../run/context.js';

/**
 * The object a key names in each VDOM asked (undefined: the management VDOM; `*`: every one), with
 * the VDOM the device answered for (null for a global table); none where it does not hold the key.
 */
export async function objectsAt(
  ctx: Context,
  table: TableDef,
  key: string | number,
  vdoms: string[] | undefined,
): Promise<ObjectAt[]> {
  const path = table.aliasOf ?? table.path;
  const client = await ctx.device().client();
  const global = isGlobal(table);
  try {
    const result = await client.request({
      method: 'GET',
      tablePath: table.path,
      group: table.group,
      mkey: key,
      query: { ...vdomQuery(global ? undefined : vdoms), ...(table.key ? { format: [table.key] } : {}) },
      eachVdom: true,
    });
    const refused = result.failed?.find((e) => !e.notFound);
    if (refused) throw refused;
    return result.envelopes
      .filter((e) => e.status !== 'error')
      .map((e) => ({ vdom: global ? null : (e.vdom ?? vdoms?.[0] ?? null), table: path, key }));
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return [];
    throw err;
  }
}

/** The users of some objects (one list per object, in order; null where they could not all be read). */
export async function usersOfObjects(ctx: Context, objects: readonly ObjectAt[]): Promise<FoundUsers> {
  return findUsers(ctx.device(), objects);
}
