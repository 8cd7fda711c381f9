// A plan made ready to send (CLI.md "References between tables"): its steps in the order references
// require, what each waits for when several run at once, the tables whose order is restored once their
// creates have landed; and its references checked against the device before anything is sent, the
// tables the check needs read concurrently, the users of every delete found (src/plan/users.ts).
import { ApiError } from '../api/errors.js';
import { devicePicksKey, isGlobal, keepsOrder, type TableDef } from '../catalogue/index.js';
import { factoryObjects, isFactoryObject } from '../catalogue/factory.js';
import type { Device } from '../device/device.js';
import { isObject, keyId, keyOf, nameOf, type Obj } from '../objects/normalize.js';
import type { Placement } from './apply.js';
import { orderSlot, type Comparison, type PlannedTables, type Step } from './plan.js';
import { READ_CONCURRENCY, readConfiguration } from './read.js';
import {
  checkNeeds,
  checkPlan,
  evaluatesTopDown,
  orderSteps,
  type CheckResult,
  type FindTable,
  type Key,
  type OrderOptions,
  type RefStep,
  type RefUser,
  type TableAt,
  type TableReading,
} from './references/index.js';
import { findUsers } from './users.js';

const KNOWN = new Set(['create', 'update', 'delete', 'move']);
const ORIGINAL = Symbol('original step');

/** The steps as the reference library reads them: a kind of step it does not know is an update of its object. */
function asRefSteps(steps: readonly Step[]): RefStep[] {
  return steps.map((step, i) =>
    KNOWN.has(step.action) ? step : ({ ...step, action: 'update', [ORIGINAL]: i } as unknown as RefStep),
  );
}

/** A step back from the library: its own kind again. */
function fromRefStep(step: RefStep, steps: readonly Step[]): Step {
  const i = (step as { [ORIGINAL]?: number })[ORIGINAL];
  if (i === undefined) return step as Step;
  const { [ORIGINAL]: _, ...rest } = step as RefStep & { [ORIGINAL]?: number };
  return { ...rest, action: steps[i].action } as Step;
}

/** A plan's steps in the order they are sent, what each waits for, and the tables placed after their creates. */
export interface Sendable {
  steps: Step[];
  /** For each step, the positions of the steps it waits for. */
  waits: number[][];
  placements: Placement[];
}

export interface SendOptions {
  find?: FindTable;
  /** Writes at once: with more than one, ordered tables not evaluated top-down are placed after their creates. */
  concurrency: number;
}

/** The device's objects of the comparisons, by table slot and key: what a delete stops naming. */
function currentObjects(comparisons: readonly Comparison[]) {
  const bySlot = new Map<string, Map<string, Obj>>();
  for (const { desired, actual } of comparisons) {
    const { table } = desired;
    if (!table.key || !Array.isArray(actual)) continue;
    const objects = new Map<string, Obj>();
    for (const object of actual) if (isObject(object)) objects.set(keyId(keyOf(table, object)), object);
    bySlot.set(orderSlot(desired.vdom, table.path), objects);
  }
  return (vdom: string | null, table: string, key: Key) => bySlot.get(orderSlot(vdom, table))?.get(keyId(key));
}

/**
 * A top-down table's steps in the document's order of its objects, each create followed at once by
 * the move that puts it in place (the plan lists the moves after the table's creates), so that a live
 * device never holds the table in a wrong order for longer than one write.
 */
function interleaveTopDown(planned: PlannedTables): Step[] {
  const steps = [...planned.steps];
  const slots = new Map<string, number[]>();
  steps.forEach((step, i) => {
    const table = planned.tables.get(step.table);
    if (step.action === 'delete' || !table || !evaluatesTopDown(table)) return;
    const slot = orderSlot(step.vdom, step.table);
    if (planned.orders.has(slot)) slots.set(slot, [...(slots.get(slot) ?? []), i]);
  });
  for (const [slot, positions] of slots) {
    const index = new Map(planned.orders.get(slot)!.map((key, i) => [keyId(key), i]));
    const rank = (step: Step) =>
      (index.get(keyId(step.key)) ?? Number.MAX_SAFE_INTEGER) * 2 + (step.action === 'move' ? 1 : 0);
    const sorted = positions.map((i) => steps[i]).sort((a, b) => rank(a) - rank(b));
    positions.forEach((p, n) => {
      steps[p] = sorted[n];
    });
  }
  return steps;
}

/** The document's order of a table's keys: an object under key 0 found by name has the device's key. */
function documentOrder(comparison: Comparison): (string | number)[] {
  const { desired, actual } = comparison;
  const table = desired.table;
  if (!Array.isArray(desired.content)) return [];
  const byName = new Map<string, Obj>();
  for (const object of Array.isArray(actual) ? actual : []) {
    const name = nameOf(table, object);
    if (name !== undefined && !byName.has(name)) byName.set(name, object);
  }
  return desired.content.flatMap((object) => {
    const key = keyOf(table, object);
    if (!devicePicksKey(table, key)) return [key];
    const found = nameOf(table, object) === undefined ? undefined : byName.get(nameOf(table, object)!);
    return found ? [keyOf(table, found)] : [];
  });
}

/**
 * The ordered tables written concurrently (integer key, updatable, not evaluated top-down) with
 * several creates: their creates may land in any order, so their moves are worked out from the
 * device's order once they have.
 */
function placementsOf(planned: PlannedTables, comparisons: readonly Comparison[]): Placement[] {
  const creates = new Map<string, number>();
  for (const step of planned.steps)
    if (step.action === 'create' && step.key !== null) {
      const table = planned.tables.get(step.table);
      if (table && !devicePicksKey(table, step.key)) {
        const slot = orderSlot(step.vdom, step.table);
        creates.set(slot, (creates.get(slot) ?? 0) + 1);
      }
    }
  return comparisons.flatMap(({ desired }, i): Placement[] => {
    const { vdom, table } = desired;
    if (!keepsOrder(table) || evaluatesTopDown(table) || (creates.get(orderSlot(vdom, table.path)) ?? 0) < 2) return [];
    return [{ vdom, table, order: documentOrder(comparisons[i]) }];
  });
}

/**
 * The plan's steps in the order references require (a circle opened by a closing update), each
 * with what it waits for: the library's waits, and each move after the table's move before it.
 */
export function sendable(planned: PlannedTables, comparisons: readonly Comparison[], options: SendOptions): Sendable {
  const { steps, waits } = inReferenceOrder(interleaveTopDown(planned), {
    find: options.find,
    current: currentObjects(comparisons),
  });
  const placements = options.concurrency > 1 ? placementsOf(planned, comparisons) : [];
  keepInsertionOrder(steps, waits, new Set(placements.map((p) => orderSlot(p.vdom, p.table.path))));
  return { steps, waits, placements };
}

/**
 * Each create of a table that is not placed afterwards waits for the table's create before it: the
 * device lists such a table in the order its objects were made (what `show` and a backup print), so a
 * restore leaves them as the document has them; different tables are still written at once.
 */
function keepInsertionOrder(steps: readonly Step[], waits: number[][], placed: ReadonlySet<string>): void {
  const last = new Map<string, number>();
  steps.forEach((step, i) => {
    if (step.action !== 'create') return;
    const slot = orderSlot(step.vdom, step.table);
    if (placed.has(slot)) return;
    const before = last.get(slot);
    if (before !== undefined && !waits[i].includes(before)) waits[i] = [...waits[i], before].sort((a, b) => a - b);
    last.set(slot, i);
  });
}

/**
 * Steps in the order references require (a circle opened by a closing update), each with what it
 * waits for: the library's waits, and each move after the table's move before it.
 */
export function inReferenceOrder(given: readonly Step[], options: OrderOptions): Omit<Sendable, 'placements'> {
  const ordered = orderSteps(asRefSteps(given), options);
  const steps = ordered.steps.map((s) => fromRefStep(s, given));
  const waits = ordered.waits();
  const lastMove = new Map<string, number>();
  steps.forEach((step, i) => {
    if (step.action !== 'move') return;
    const slot = orderSlot(step.vdom, step.table);
    const last = lastMove.get(slot);
    if (last !== undefined && !waits[i].includes(last)) waits[i] = [...waits[i], last].sort((a, b) => a - b);
    lastMove.set(slot, i);
  });
  return { steps, waits };
}

/** The reference checks' options for a device: its catalogue, the factory objects, the database tables. */
function checkOptions(find: FindTable) {
  return { find, isFactory: isFactoryObject, databases: factoryObjects().databases };
}

/** A read refused because the caller may not read the table, or the device lacks it: noted, not checked. */
function unreadable(error: unknown): boolean {
  return error instanceof ApiError && [403, 404, 405].includes(error.status);
}

/**
 * The tables the check needs beyond those already read (`readings`), read concurrently through the
 * device's one connection pool: a global table once, a per-VDOM one in its VDOM (every VDOM for a
 * global object's names). A table the caller may not read has content null (not checked).
 */
async function readNeeded(
  device: Device,
  needed: readonly TableAt[],
  readings: readonly TableReading[],
  find: FindTable,
  concurrency: number,
): Promise<TableReading[]> {
  const have = new Set(readings.map((r) => `${r.vdom}\0${r.table}`));
  const groups = new Map<string, { vdoms: string[] | undefined; tables: TableDef[]; at: TableAt[] }>();
  for (const at of needed) {
    const table = find(at.table);
    if (!table || have.has(`${at.vdom}\0${at.table}`)) continue;
    // '' is the management VDOM (a bulk write without --vdom): asked without a VDOM, named '' again.
    const vdoms = isGlobal(table) || at.vdom === '' ? undefined : at.vdom === null ? ['*'] : [at.vdom];
    const id = vdoms ? vdoms.join(',') : '';
    const group = groups.get(id) ?? { vdoms, tables: [], at: [] };
    group.tables.push(table);
    group.at.push(at);
    groups.set(id, group);
  }
  const reads = await Promise.all(
    [...groups.values()].map(async (group) => {
      const read = await readConfiguration(device, group.tables, group.vdoms, { concurrency });
      const out: TableReading[] = read.tables.map((t) => ({
        vdom: t.vdom !== null && !group.vdoms ? '' : t.vdom,
        table: t.table.aliasOf ?? t.table.path,
        content: t.content as Obj[] | Obj,
      }));
      for (const failure of read.failures) {
        if (!unreadable(failure.error)) throw failure.error;
        const i = group.tables.indexOf(failure.table);
        out.push({ vdom: group.at[i].vdom, table: failure.table.aliasOf ?? failure.table.path, content: null });
      }
      return out;
    }),
  );
  return reads.flat();
}

/**
 * The reference problems of a plan (CLI.md "The plan is checked before anything is sent"): what its
 * creates and updates name must be on the device or in the plan; no object it deletes may still be
 * named by an object it keeps. `comparisons` are the device's tables already read; the other tables
 * the check needs are read, and the users of each delete found (the device's usage query, else the
 * tables that can name it).
 */
export async function checkReferences(
  device: Device,
  steps: readonly Step[],
  comparisons: readonly Pick<Comparison, 'desired' | 'actual'>[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<CheckResult> {
  if (!steps.length) return { problems: [], unchecked: [] };
  const catalogue = await device.catalogue();
  const find: FindTable = (path) => catalogue.find(path);
  const concurrency = options.concurrency ?? READ_CONCURRENCY;
  const refSteps = asRefSteps(steps);
  const needs = checkNeeds(refSteps, checkOptions(find));
  const readings: TableReading[] = comparisons.map(({ desired, actual }) => ({
    vdom: desired.vdom,
    table: desired.table.aliasOf ?? desired.table.path,
    content: actual as Obj[] | Obj,
  }));
  const [more, found] = await Promise.all([
    readNeeded(device, needs.keys, readings, find, concurrency),
    needs.users.length ? findUsers(device, needs.users, { concurrency, signal: options.signal }) : undefined,
  ]);
  const users = new Map<string, RefUser[] | null>();
  needs.users.forEach((at, i) => {
    users.set(`${at.vdom}\0${at.table}\0${keyId(at.key)}`, found?.users[i] ?? null);
  });
  const vdoms = new Set(steps.map((s) => s.vdom).filter((v) => v !== null));
  return checkPlan(refSteps, [...readings, ...more], {
    ...checkOptions(find),
    usersOf: (vdom, table, key) => users.get(`${vdom}\0${table}\0${keyId(key)}`) ?? null,
    showVdom: vdoms.size > 1,
  });
}
