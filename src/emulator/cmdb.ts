import { allows, describeOperations, OPERATION_NAMES, type OperationCode, type TableDef } from '../catalogue/index.js';
import { fail } from './envelope.js';
import { parseListQuery, parseRenderOptions } from './query.js';
import { renderObject } from './render.js';
import { defaultsOf, materialize, tableMeta, tableSchema, type Obj } from './schema.js';
import { keyId, KeyedTable, revisionText, SingletonTable, type TableState, type View } from './store.js';
import type { TransactionManager } from './transactions.js';
import { checkKey, parseJsonBody, validateObject, validateValue } from './validate.js';

/** One CMDB request, with the table already resolved and the item key decoded. */
export interface CmdbCall {
  method: string;
  table: TableDef;
  itemKey: string | null;
  params: URLSearchParams;
  body: string;
  contentType: string | undefined;
}

export interface RunContext {
  view: View;
  vdom: string;
  transactions: TransactionManager;
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
  throw fail.methodNotAllowed(`method ${call.method} (${what}) is not allowed on ${call.table.path}, which supports: ${describeOperations(call.table)}`);
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

function unchanged(before: Obj, after: Obj): boolean {
  return JSON.stringify(before) === JSON.stringify(after);
}

/** An integer-keyed table has no entry under a key that is not an integer. */
function parseItemKey(table: TableDef, text: string): string | number {
  if (table.keyType !== 'integer') return text;
  if (!/^\d+$/.test(text)) throw fail.notFound(`entry ${JSON.stringify(text)} not found in ${table.path}: '${table.key}' is an integer`);
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
          return { results: tableSchema(table) };
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
    run: ({ view, vdom }) => {
      const rows = asKeyed(view.read(vdom, table.path)).page(query.start, query.count, query.match);
      return { results: rows.map((row) => renderObject(table, row, query.render)) };
    },
  };
}

function read(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const options = parseRenderOptions(call.params);
  return {
    write: false,
    run: ({ view, vdom }) => {
      const row = asKeyed(view.read(vdom, table.path)).get(key);
      if (!row) throw notFound(table, key);
      return { results: [renderObject(table, row, options)], mkey: key };
    },
  };
}

function create(call: CmdbCall): Operation {
  const { table } = call;
  const keyField = table.key!;
  const input = validateObject(table.fields, parseBody(call));
  checkKey(keyField, input, true);
  const row = materialize(table.fields, input, true);
  const mkey = row[keyField];
  return {
    write: true,
    run: ({ view, vdom }) => {
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        if (rows.has(mkey)) throw fail.duplicate(keyField, mkey);
        rows.insert(row);
        return true;
      });
      return { mkey };
    },
  };
}

/** A PUT changes only the fields it carries; carrying another key renames the entry. */
function update(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const keyField = table.key!;
  const patch = validateObject(table.fields, parseBody(call));
  checkKey(keyField, patch, false);
  const changes = materialize(table.fields, patch, false);
  return {
    write: true,
    run: ({ view, vdom }) => {
      let mkey: unknown = key;
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        const old = rows.get(key);
        if (!old) throw notFound(table, key);
        const next = { ...old, ...changes };
        mkey = next[keyField];
        if (keyId(mkey) !== keyId(key) && rows.has(mkey)) throw fail.duplicate(keyField, mkey);
        if (unchanged(old, next)) return false;
        rows.replace(key, next);
        return true;
      });
      return { mkey };
    },
  };
}

function remove(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  return {
    write: true,
    run: ({ view, vdom }) => {
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        if (!rows.has(key)) throw notFound(table, key);
        rows.remove(key);
        return true;
      });
      return { mkey: key };
    },
  };
}

/** `POST <item>?action=clone&nkey=<new>`: a copy of the entry under a new key, appended. */
function clone(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const keyField = table.key!;
  const nkeyText = call.params.get('nkey');
  if (nkeyText === null || nkeyText === '') throw fail.mustBeSet('nkey');
  const nkey = validateValue('nkey', table.fields[keyField] ?? { type: 'string' }, nkeyText);
  return {
    write: true,
    run: ({ view, vdom }) => {
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        const source = rows.get(key);
        if (!source) throw notFound(table, key);
        if (rows.has(nkey)) throw fail.duplicate(keyField, nkey);
        rows.insert({ ...source, [keyField]: nkey });
        return true;
      });
      return { mkey: nkey };
    },
  };
}

/** `PUT <item>?action=move&before=<k>` (or `after`); a missing or doubled anchor is a missing parameter (424). */
function move(call: CmdbCall, key: string | number): Operation {
  const { table } = call;
  const before = call.params.get('before');
  const after = call.params.get('after');
  if ((before === null) === (after === null) || (before ?? after) === '') {
    throw fail.invalidValue("action=move needs exactly one of 'before' or 'after'");
  }
  const where = before !== null ? 'before' : 'after';
  const target = parseItemKey(table, (before ?? after)!);
  return {
    write: true,
    run: ({ view, vdom }) => {
      view.write(vdom, table.path, (state) => {
        const rows = asKeyed(state);
        if (!rows.has(key)) throw notFound(table, key);
        if (!rows.has(target)) throw fail.notFound(`${where} entry ${JSON.stringify(target)} not found in ${table.path}`);
        return rows.move(key, target, where);
      });
      return { mkey: key };
    },
  };
}

function getSingleton(call: CmdbCall): Operation {
  const { table } = call;
  const options = parseRenderOptions(call.params);
  return {
    write: false,
    run: ({ view, vdom }) => ({ results: renderObject(table, asSingleton(view.read(vdom, table.path)).object, options) }),
  };
}

function updateSingleton(call: CmdbCall): Operation {
  const { table } = call;
  const changes = materialize(table.fields, validateObject(table.fields, parseBody(call)), false);
  return {
    write: true,
    run: ({ view, vdom }) => {
      view.write(vdom, table.path, (state) => {
        const settings = asSingleton(state);
        const next = { ...settings.object, ...changes };
        if (unchanged(settings.object, next)) return false;
        settings.object = next;
        return true;
      });
      return {};
    },
  };
}

function planSingleton(call: CmdbCall, action: string | null): Operation {
  if (call.itemKey !== null) throw fail.notFound(`${call.table.path} has a single settings object and no item path`);
  switch (call.method) {
    case 'GET':
      if (action !== null) return tableAction(call, action, COLLECTION_ACTIONS);
      requireOperation(call, 'G', 'L');
      return getSingleton(call);
    case 'PUT':
      requireOperation(call, 'P');
      rejectAction(call, action);
      return updateSingleton(call);
    default:
      return unsupportedMethod(call);
  }
}

function unsupportedMethod(call: CmdbCall): never {
  throw fail.methodNotAllowed(`method ${call.method} is not allowed on this path of ${call.table.path}, which supports: ${describeOperations(call.table)}`);
}

function planCollection(call: CmdbCall, action: string | null): Operation {
  switch (call.method) {
    case 'GET':
      if (action !== null) return tableAction(call, action, COLLECTION_ACTIONS);
      requireOperation(call, 'L');
      return list(call);
    case 'POST':
      requireOperation(call, 'C');
      rejectAction(call, action);
      return create(call);
    default:
      return unsupportedMethod(call);
  }
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

/**
 * Checks a request against the catalogue (405 for an operation it does not
 * list, 400 for an action the operation does not support) and its body
 * against the field schema (424), before anything runs. `schema`, `default`,
 * `meta`, `revision` and `transaction-list` describe the table rather than
 * its objects, so they are answered for every catalogued table.
 */
export function planOperation(call: CmdbCall): Operation {
  const action = call.params.get('action') || null;
  if (call.table.singleton) return planSingleton(call, action);
  if (call.itemKey === null) return planCollection(call, action);
  return planItem(call, action, parseItemKey(call.table, call.itemKey));
}
