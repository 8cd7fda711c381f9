// The CMDB tables' operations as a device runs them: list, read, create, update, delete, clone, move,
// singletons and sub-table paths, each checked (operation, action, body, references) before it writes.
import { allows, describeOperations, OPERATION_NAMES, type OperationCode, type TableDef } from '../catalogue/index.js';
import { fail } from './envelope.js';
import { parseListQuery, parseRenderOptions, type RenderOptions } from './query.js';
import type { Integrity } from './references.js';
import { renderEntries, renderObject, type ObjectMeta } from './render.js';
import {
  defaultsOf,
  materialize,
  subKeyOf,
  tableMeta,
  tableSchema,
  withUuid,
  type Fields,
  type Obj,
} from './schema.js';
import {
  keyId,
  KeyedTable,
  revisionText,
  SingletonTable,
  type Change,
  type Edit,
  type TableState,
  type View,
} from './store.js';
import type { TransactionManager } from './transactions.js';
import { checkKey, parseJsonBody, validateObject, validateValue } from './validate.js';

/** One CMDB request, with the table already resolved and the item key decoded. */
export interface CmdbCall {
  method: string;
  table: TableDef;
  itemKey: string | null;
  /** A sub-table path (`<item>/<child>[/<id>]`): the list field and the decoded entry key. */
  child?: { field: string; key: string | null } | null;
  params: URLSearchParams;
  body: string;
  contentType: string | undefined;
  /** The device's own schema of the table, where the emulator serves one (`--schema FILE`). */
  schema?: Obj;
}

export interface RunContext {
  view: View;
  vdom: string;
  transactions: TransactionManager;
  integrity: Integrity;
}

export interface RunResult {
  results?: unknown;
  mkey?: unknown;
}

/** A checked request, ready to run once per VDOM. */
export interface Operation {
  write: boolean;
  run(context: RunContext): RunResult;
}

const COLLECTION_ACTIONS = ['default', 'meta', 'schema', 'revision', 'transaction-list'];
const ITEM_ACTIONS = ['default', 'schema', 'revision', 'transaction-list'];

function asKeyed(state: TableState): KeyedTable {
  if (!(state instanceof KeyedTable)) throw fail.internal('keyed table expected');
  return state;
}

function asSingleton(state: TableState): SingletonTable {
  if (!(state instanceof SingletonTable)) throw fail.internal('singleton table expected');
  return state;
}

function requireOperation(call: CmdbCall, ...codes: OperationCode[]): void {
  if (codes.some((code) => allows(call.table, code))) return;
  const what = codes.map((code) => OPERATION_NAMES[code]).join('/');
  throw fail.methodNotAllowed(
    `method ${call.method} (${what}) is not allowed on ${call.table.path}, which supports: ` +
      `${describeOperations(call.table)}`,
  );
}

function unsupportedAction(call: CmdbCall, action: string): never {
  throw fail.invalidRequest(`invalid request: action '${action}' is not supported by ${call.method} on this path`);
}

function rejectAction(call: CmdbCall, action: string | null): void {
  if (action !== null) unsupportedAction(call, action);
}

function notFound(table: TableDef, key: unknown): Error {
  return fail.notFound(`entry ${JSON.stringify(key)} not found in ${table.path}`);
}

function parseBody(call: CmdbCall): unknown {
  return parseJsonBody(call.body, call.contentType);
}

function isObject(value: unknown): value is Obj {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** An integer key left out, or given as 0, means "the next free number" (as the device does). */
function wantsNextKey(table: TableDef, body: unknown): body is Obj {
  if (table.keyType !== 'integer' || !isObject(body)) return false;
  const given = body[table.key!];
  return given === undefined || given === 0 || given === '0';
}

/** One more than the highest integer key, and at least the key field's minimum (1 when it has none). */
function nextFreeKey(table: TableDef, rows: KeyedTable): number {
  let next = Math.max(table.fields[table.key!]?.minimum ?? 1, 1);
  for (const row of rows.all()) {
    const key = row[table.key!];
    if (typeof key === 'number' && key >= next) next = key + 1;
  }
  return next;
}

function unchanged(before: Obj, after: Obj): boolean {
  return JSON.stringify(before) === JSON.stringify(after);
}

/**
 * Fields every object of a table needs beyond its key, refused when a create lacks them as the API layer
 * refuses a missing attribute. The catalogue's wider `required` marks apply only in some cases: not these.
 */
const NEEDED: Record<string, readonly string[]> = {
  'firewall/policy': ['srcintf', 'dstintf', 'srcaddr', 'dstaddr', 'schedule', 'service'],
};

function checkNeeded(table: TableDef, object: Obj): void {
  for (const field of NEEDED[table.path] ?? []) {
    const value = object[field];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
      throw fail.mustBeSet(field);
  }
}

/** `q_ref`, `q_static` and `q_no_rename` of an object, as a device counts them (only asked for with `with_meta`). */
function metaOf(
  table: TableDef,
  { view, vdom, integrity }: RunContext,
  options: RenderOptions,
): ObjectMeta | undefined {
  if (!options.withMeta) return undefined;
  return (object) => {
    const users = integrity.usersOfObject(view, vdom, table, object);
    const fixed = !table.singleton && integrity.isStatic(vdom, table, object[table.key!]);
    return {
      ref: new Set(users.map((use) => `${use.owner}\0${use.table}\0${keyId(use.key)}`)).size,
      static: fixed,
      noRename: fixed,
    };
  };
}

/** An integer-keyed table has no entry under a key that is not an integer. */
function parseItemKey(table: TableDef, text: string): string | number {
  if (table.keyType !== 'integer') return text;
  if (!/^\d+$/.test(text))
    throw fail.notFound(`entry ${JSON.stringify(text)} not found in ${table.path}: '${table.key}' is an integer`);
  return Number(text);
}

function tableAction(call: CmdbCall, action: string, actions: string[]): Operation {
  if (!actions.includes(action)) unsupportedAction(call, action);
  const { table } = call;
  return {
    write: false,
    run: ({ view, vdom, transactions }) => {
      const state = view.read(vdom, table.path);
      switch (action) {
        case 'default':
          return { results: defaultsOf(table.fields) };
        case 'schema':
          return { results: call.schema ?? tableSchema(table) };
        case 'meta':
          return { results: tableMeta(table, state instanceof KeyedTable ? state.size : 1) };
        case 'revision':
          return { results: { revision: revisionText(vdom, table.path, state.revision) } };
        default:
          return { results: transactions.list() };
      }
    },
  };
}

function list(call: CmdbCall): Operation {
  const { table } = call;
  const query = parseListQuery(table, call.params);
  return {
    write: false,
    run: (context) => {
      const rows = asKeyed(context.view.read(context.vdom, table.path)).page(query.start, query.count, query.match);
      const meta = metaOf(table, context, query.render);
      return { results: rows.map((row) => renderObject(table, row, query.render, meta)) };
    },
  };
}

function read(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const options = parseRenderOptions(call.params);
  return {
    write: false,
    run: (context) => {
      const row = asKeyed(context.view.read(context.vdom, table.path)).get(key);
      if (!row) throw notFound(table, key);
      return { results: [renderObject(table, row, options, metaOf(table, context, options))], mkey: key };
    },
  };
}

function create(call: CmdbCall): Operation {
  const { table } = call;
  const keyField = table.key!;
  const body = parseBody(call);
  const numbered = wantsNextKey(table, body);
  const input = validateObject(
    table.fields,
    numbered ? Object.fromEntries(Object.entries(body).filter(([name]) => name !== keyField)) : body,
    '',
    table.path,
  );
  if (!numbered) checkKey(keyField, input, true);
  checkNeeded(table, input);
  const row = materialize(table.fields, input, true);
  return {
    write: true,
    run: ({ view, vdom, integrity }) => {
      let mkey = row[keyField];
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        if (numbered) mkey = nextFreeKey(table, rows);
        if (rows.has(mkey)) throw fail.duplicate(keyField, mkey);
        const created = withUuid(table, { ...row, [keyField]: mkey });
        integrity.checkNames(view, vdom, table, undefined, created, Object.keys(input));
        rows.insert(created);
        return [{ after: created }];
      });
      return { mkey };
    },
  };
}

/**
 * A write to the entry `key` of a keyed table, which must exist: `change` edits the rows and says
 * what it changed, and the key the answer names (the entry's after a rename, or its copy's).
 */
function entryWrite(
  table: TableDef,
  key: string | number,
  change: (rows: KeyedTable, entry: Obj, context: RunContext) => { change: Change; mkey: unknown },
): Operation {
  return {
    write: true,
    run: (context) => {
      let mkey: unknown = key;
      context.view.write(context.vdom, table.path, (state) => {
        const rows = asKeyed(state);
        const entry = rows.get(key);
        if (!entry) throw notFound(table, key);
        const done = change(rows, entry, context);
        mkey = done.mkey;
        return done.change;
      });
      return { mkey };
    },
  };
}

/**
 * A PUT changes only the fields it carries; carrying another key renames the entry, and every
 * object that named it names it under its new key (as when an administrator renames it on a device).
 */
function update(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const keyField = table.key!;
  const patch = validateObject(table.fields, parseBody(call), '', table.path);
  checkKey(keyField, patch, false);
  const changes = materialize(table.fields, patch, false);
  return entryWrite(table, key, (rows, old, { view, vdom, integrity }) => {
    const next = { ...old, ...changes };
    const mkey = next[keyField];
    const renamed = keyId(mkey) !== keyId(key);
    if (renamed && rows.has(mkey)) throw fail.duplicate(keyField, mkey);
    if (unchanged(old, next)) return { change: [], mkey };
    if (renamed) integrity.checkRename(vdom, table, key);
    integrity.checkNames(view, vdom, table, old, next, Object.keys(patch));
    integrity.checkRemoved(view, vdom, table, old, next);
    if (renamed) integrity.renameUsers(view, vdom, table, key, mkey);
    rows.replace(key, next);
    return { change: [{ before: old, after: next }], mkey };
  });
}

/** A delete refused while anything names the object, and for factory objects. */
function remove(call: CmdbCall, key: string | number): Operation {
  return entryWrite(call.table, key, (rows, entry, { view, vdom, integrity }) => {
    integrity.checkRemoved(view, vdom, call.table, entry, undefined);
    rows.remove(key);
    return { change: [{ before: entry }], mkey: key };
  });
}

/** `POST <item>?action=clone&nkey=<new>`: a copy of the entry under a new key, appended. */
function clone(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const keyField = table.key!;
  const nkeyText = call.params.get('nkey');
  if (nkeyText === null || nkeyText === '') throw fail.mustBeSet('nkey');
  const nkey = validateValue('nkey', table.fields[keyField] ?? { type: 'string' }, nkeyText);
  return entryWrite(table, key, (rows, source) => {
    if (rows.has(nkey)) throw fail.duplicate(keyField, nkey);
    // A copy names what its source names, and gets a UUID of its own.
    const copy = withUuid(table, { ...source, [keyField]: nkey, ...('uuid' in source ? { uuid: '' } : {}) });
    rows.insert(copy);
    return { change: [{ after: copy }], mkey: nkey };
  });
}

/** `PUT <item>?action=move&before=<k>` (or `after`); a missing or doubled anchor is a missing parameter (424). */
function move(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const before = call.params.get('before');
  const after = call.params.get('after');
  if ((before === null) === (after === null) || (before ?? after) === '') {
    throw fail.missingParameter("action=move needs exactly one of 'before' or 'after'");
  }
  const where = before !== null ? 'before' : 'after';
  const target = parseItemKey(table, (before ?? after)!);
  return entryWrite(table, key, (rows) => {
    if (!rows.has(target)) throw fail.notFound(`${where} entry ${JSON.stringify(target)} not found in ${table.path}`);
    return { change: rows.move(key, target, where), mkey: key };
  });
}

function getSingleton(call: CmdbCall): Operation {
  const { table } = call;
  const options = parseRenderOptions(call.params);
  return {
    write: false,
    run: (context) => ({
      results: renderObject(table, asSingleton(context.view.read(context.vdom, table.path)).object, options),
    }),
  };
}

function updateSingleton(call: CmdbCall): Operation {
  const { table } = call;
  const patch = validateObject(table.fields, parseBody(call), '', table.path);
  const changes = materialize(table.fields, patch, false);
  return {
    write: true,
    run: ({ view, vdom, integrity }) => {
      view.write(vdom, table.path, (state) => {
        const settings = asSingleton(state);
        const before = settings.object;
        const next = { ...before, ...changes };
        if (unchanged(before, next)) return [];
        integrity.checkNames(view, vdom, table, before, next, Object.keys(patch));
        integrity.checkRemoved(view, vdom, table, before, next);
        settings.object = next;
        return [{ before, after: next }];
      });
      return {};
    },
  };
}

/** A path with one read (GET, or one of the table's actions) and one write without an action. */
interface PathPlan {
  read: { codes: OperationCode[]; run: (call: CmdbCall) => Operation };
  write: { method: string; code: OperationCode; run: (call: CmdbCall) => Operation };
}

function planPath(call: CmdbCall, action: string | null, { read, write }: PathPlan): Operation {
  if (call.method === 'GET') {
    if (action !== null) return tableAction(call, action, COLLECTION_ACTIONS);
    requireOperation(call, ...read.codes);
    return read.run(call);
  }
  if (call.method !== write.method) return unsupportedMethod(call);
  requireOperation(call, write.code);
  rejectAction(call, action);
  return write.run(call);
}

function planSingleton(call: CmdbCall, action: string | null): Operation {
  if (call.itemKey !== null) throw fail.notFound(`${call.table.path} has a single settings object and no item path`);
  return planPath(call, action, {
    read: { codes: ['G', 'L'], run: getSingleton },
    write: { method: 'PUT', code: 'P', run: updateSingleton },
  });
}

function unsupportedMethod(call: CmdbCall): never {
  throw fail.methodNotAllowed(
    `method ${call.method} is not allowed on this path of ${call.table.path}, which supports: ` +
      `${describeOperations(call.table)}`,
  );
}

function planCollection(call: CmdbCall, action: string | null): Operation {
  return planPath(call, action, {
    read: { codes: ['L'], run: list },
    write: { method: 'POST', code: 'C', run: create },
  });
}

function planItem(call: CmdbCall, action: string | null, key: string | number): Operation {
  switch (call.method) {
    case 'GET':
      if (action !== null) return tableAction(call, action, ITEM_ACTIONS);
      requireOperation(call, 'R');
      return read(call, key);
    case 'POST':
      requireOperation(call, 'C');
      if (action === null) return unsupportedMethod(call);
      if (action !== 'clone') unsupportedAction(call, action);
      return clone(call, key);
    case 'PUT':
      requireOperation(call, 'U');
      if (action === null) return update(call, key);
      if (action !== 'move') unsupportedAction(call, action);
      return move(call, key);
    case 'DELETE':
      requireOperation(call, 'D');
      rejectAction(call, action);
      return remove(call, key);
    default:
      return unsupportedMethod(call);
  }
}

interface ChildTable {
  field: string;
  items: Fields;
  subKey: string;
  /** The entry key of the path, typed as the sub-table's key field; null on the list path. */
  key: string | number | null;
}

function childTable(call: CmdbCall): ChildTable {
  const { table } = call;
  const { field: name, key } = call.child!;
  const field = table.fields[name];
  if (field?.type !== 'array') throw fail.notFound(`${table.path} has no sub-table '${name}'`);
  const items = field.items ?? {};
  const subKey = subKeyOf(items);
  if (key === null || items[subKey]?.type !== 'integer') return { field: name, items, subKey, key };
  if (!/^\d+$/.test(key))
    throw fail.notFound(
      `entry ${JSON.stringify(key)} not found in ${name} of ${table.path}: '${subKey}' is an integer`,
    );
  return { field: name, items, subKey, key: Number(key) };
}

/** The object that holds the sub-table: the settings of a singleton, else the entry under the item key. */
function parentOf(call: CmdbCall, state: TableState, parentKey: string | number | null): Obj {
  if (parentKey === null) return asSingleton(state).object;
  const parent = asKeyed(state).get(parentKey);
  if (!parent) throw notFound(call.table, parentKey);
  return parent;
}

function replaceParent(state: TableState, parentKey: string | number | null, next: Obj): void {
  if (parentKey === null) asSingleton(state).object = next;
  else asKeyed(state).replace(parentKey, next);
}

function entriesOf(parent: Obj, child: ChildTable): Obj[] {
  const list = parent[child.field];
  return Array.isArray(list) ? (list as Obj[]) : [];
}

function entryNotFound(call: CmdbCall, child: ChildTable, key: unknown): Error {
  return fail.notFound(`entry ${JSON.stringify(key)} not found in ${child.field} of ${call.table.path}`);
}

/**
 * `<item>/<child>[/<id>]` (a singleton: `<table>/<child>[/<id>]`): the
 * device's way to read, append, change or remove one entry of a list field
 * without replacing the whole list. A write is an update of the object.
 */
function planChild(call: CmdbCall, action: string | null, parentKey: string | number | null): Operation {
  const { table } = call;
  const child = childTable(call);
  rejectAction(call, action);
  const write = (change: (entries: Obj[]) => { entries: Obj[]; mkey: unknown }): Operation => {
    requireOperation(call, table.singleton ? 'P' : 'U');
    return {
      write: true,
      run: ({ view, vdom, integrity }) => {
        let mkey: unknown;
        view.write(vdom, table.path, (state): Edit[] => {
          const parent = parentOf(call, state, parentKey);
          const changed = change(entriesOf(parent, child));
          mkey = changed.mkey;
          const next = { ...parent, [child.field]: changed.entries };
          if (unchanged(parent, next)) return [];
          integrity.checkNames(view, vdom, table, parent, next, [child.field]);
          integrity.checkRemoved(view, vdom, table, parent, next);
          replaceParent(state, parentKey, next);
          return [{ before: parent, after: next }];
        });
        return { mkey };
      },
    };
  };
  const find = (entries: Obj[]) => {
    const index = entries.findIndex((entry) => keyId(entry[child.subKey]) === keyId(child.key));
    if (index < 0) throw entryNotFound(call, child, child.key);
    return index;
  };
  switch (call.method) {
    case 'GET': {
      if (table.singleton) requireOperation(call, 'G', 'L');
      else requireOperation(call, 'R');
      const options = parseRenderOptions(call.params);
      return {
        write: false,
        run: ({ view, vdom }) => {
          const entries = entriesOf(parentOf(call, view.read(vdom, table.path), parentKey), child);
          const chosen = child.key === null ? entries : [entries[find(entries)]];
          return { results: renderEntries(table, child.field, chosen, options) };
        },
      };
    }
    case 'POST': {
      if (child.key !== null) return unsupportedMethod(call);
      const input = validateObject(child.items, parseBody(call), `${child.field}.`, table.path);
      return write((entries) => {
        // Completed as a create completes it: every field, and the next `id` when it has none.
        const added = (
          materialize({ list: { type: 'array', items: child.items } }, { list: [...entries, input] }, false)
            .list as Obj[]
        ).at(-1)!;
        const mkey = added[child.subKey];
        if (entries.some((existing) => keyId(existing[child.subKey]) === keyId(mkey)))
          throw fail.duplicate(`${child.field}.${child.subKey}`, mkey);
        return { entries: [...entries, added], mkey };
      });
    }
    case 'PUT': {
      if (child.key === null) return unsupportedMethod(call);
      const patch = validateObject(child.items, parseBody(call), `${child.field}.`, table.path);
      return write((entries) => {
        const index = find(entries);
        const next = { ...entries[index], ...patch };
        const mkey = next[child.subKey];
        if (
          keyId(mkey) !== keyId(child.key) &&
          entries.some((existing) => keyId(existing[child.subKey]) === keyId(mkey))
        ) {
          throw fail.duplicate(`${child.field}.${child.subKey}`, mkey);
        }
        return { entries: entries.map((entry, i) => (i === index ? next : entry)), mkey };
      });
    }
    case 'DELETE':
      if (child.key === null) return unsupportedMethod(call);
      return write((entries) => {
        const index = find(entries);
        return { entries: entries.filter((_, i) => i !== index), mkey: child.key };
      });
    default:
      return unsupportedMethod(call);
  }
}

/**
 * Checks a request against the catalogue (405 for an operation it does not
 * list, 400 for an action the operation does not support) and its body
 * against the field schema (424), before anything runs. `schema`, `default`,
 * `meta`, `revision` and `transaction-list` describe the table rather than
 * its objects, so they are answered for every catalogued table.
 */
export function planOperation(call: CmdbCall): Operation {
  const action = call.params.get('action') || null;
  if (call.child) return planChild(call, action, call.table.singleton ? null : parseItemKey(call.table, call.itemKey!));
  if (call.table.singleton) return planSingleton(call, action);
  if (call.itemKey === null) return planCollection(call, action);
  return planItem(call, action, parseItemKey(call.table, call.itemKey));
}
