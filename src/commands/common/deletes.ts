// Deletes of several objects of a table, planned before anything is sent (CLI.md "References between
// tables"): ordered so that an object goes before the objects it names (a group of groups), and checked
// that nothing kept still names one (the device's usage query, else reads): such a delete is refused
// with exit 2, each listed, unless --force. On a terminal, what uses an object is shown before the question.
import { ApiError, MalformedAnswerError } from '../../api/errors.js';
import { isGlobal, type TableDef } from '../../catalogue/index.js';
import { describeError } from '../../run/hints.js';
import { isFactoryObject } from '../../catalogue/factory.js';
import { UsageError } from '../../errors.js';
import {
  checkPlan,
  keyId,
  orderSteps,
  usedByMessage,
  type Key,
  type Obj,
  type RefStep,
  type RefUser,
} from '../../plan/references/index.js';
import { isObject } from '../../objects/normalize.js';
import type { QueryParams } from '../../api/url.js';
import type { Context } from '../../run/context.js';
import { usersOfObjects } from './users.js';

export interface PlannedDeletes {
  /** The keys in the order to send them (keys the device does not hold last, as given). */
  keys: Key[];
  /** Some delete must wait for another: send one at a time. */
  inOrder: boolean;
  /** What to show before the question: each object's users, or the plan's problems sent anyway. */
  details: string[];
}

/** The objects of the table under the keys, per VDOM the query asks (the management VDOM when none). */
async function current(ctx: Context, table: TableDef, query: QueryParams) {
  const client = await ctx.device().client();
  const result = await client.request({
    method: 'GET',
    tablePath: table.path,
    group: table.group,
    query,
    eachVdom: true,
  });
  const refused = result.failed?.find((e) => !e.notFound);
  if (refused) throw refused;
  return result.envelopes
    .filter((e) => e.status !== 'error')
    .map((e) => ({
      vdom: isGlobal(table) ? null : (e.vdom ?? query.vdom?.[0] ?? null),
      objects: (Array.isArray(e.results) ? e.results : []).filter(isObject) as Obj[],
    }));
}

/**
 * Plans the deletes of `keys`: several in their order, checked that no object not deleted names one
 * (exit 2 unless --force); one (on a terminal) with its users, for the question. A device that answers
 * the reads with an error or not as the API does: said once, and the deletes go as given, unchecked.
 */
export async function planDeletes(
  ctx: Context,
  table: TableDef,
  keys: Key[],
  query: QueryParams,
): Promise<PlannedDeletes> {
  try {
    return await plan(ctx, table, keys, query);
  } catch (err) {
    if (!(err instanceof ApiError || err instanceof MalformedAnswerError)) throw err;
    ctx.out.notice(
      `${table.path}: what uses the objects could not be read (${describeError(err).message}): ` +
        'the deletes go in the order given, not checked',
    );
    return { keys, inOrder: false, details: [] };
  }
}

async function plan(ctx: Context, table: TableDef, keys: Key[], query: QueryParams): Promise<PlannedDeletes> {
  const path = table.aliasOf ?? table.path;
  const keyField = table.key!;
  const asked = new Set(keys.map(keyId));
  const steps: RefStep[] = [];
  const objects = new Map<string, Obj>();
  for (const { vdom, objects: content } of await current(ctx, table, query))
    for (const object of content)
      if (asked.has(keyId(object[keyField]))) {
        const key = object[keyField] as Key;
        steps.push({ action: 'delete', vdom, table: path, key });
        objects.set(`${vdom}\0${keyId(key)}`, object);
      }
  const catalogue = await ctx.device().catalogue();
  const find = (p: string) => catalogue.find(p);
  const ordered = orderSteps(steps, {
    find,
    current: (vdom, _table, key) => objects.get(`${vdom}\0${keyId(key)}`),
  });
  const seen = new Set<string>();
  const order: Key[] = [];
  for (const step of ordered.steps)
    if (step.key !== null && !seen.has(keyId(step.key))) {
      seen.add(keyId(step.key));
      order.push(step.key);
    }
  for (const key of keys) if (!seen.has(keyId(key))) order.push(key);
  const inOrder = ordered.waits().some((w) => w.length > 0);
  if (!steps.length) return { keys: order, inOrder, details: [] };

  const found = await usersOfObjects(ctx, steps as { vdom: string | null; table: string; key: Key }[]);
  const showVdom = new Set(steps.map((s) => s.vdom)).size > 1;
  if (keys.length === 1) {
    // One object: sent as asked; its users shown before the question, as the device's refusal names them.
    const details = steps.flatMap((s, i) => {
      const users = found.users[i];
      return users?.length ? [usedByMessage(s.key!, users, showVdom)] : [];
    });
    return { keys: order, inOrder, details };
  }
  const usersAt = new Map<string, RefUser[] | null>();
  steps.forEach((s, i) => {
    usersAt.set(`${s.vdom}\0${keyId(s.key)}`, found.users[i]);
  });
  const checked = checkPlan(steps, [], {
    find,
    isFactory: (t, k, f) => isFactoryObject(t, k, f),
    usersOf: (vdom, _table, key) => usersAt.get(`${vdom}\0${keyId(key)}`) ?? null,
    showVdom,
  });
  for (const u of checked.unchecked) ctx.out.notice(u.message);
  const problems = checked.problems.map((p) => p.message);
  const many = problems.length > 1;
  if (problems.length && !ctx.settings.force)
    throw new UsageError(
      `${many ? `${problems.length} objects` : 'an object'} not deleted ${many ? 'name ones' : 'names one'} ` +
        `to delete: ${problems.join('; ')}`,
      'delete those too (on the same line), change them first, or give --force to send the deletes anyway',
    );
  for (const problem of problems) ctx.out.warn(`${problem} (sent anyway: --force)`);
  return { keys: order, inOrder, details: problems };
}
