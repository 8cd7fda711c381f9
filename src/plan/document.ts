// A config document (CLI.md "Configuration as code"): VDOMs, then table paths, then each table's
// content; read and checked whole before anything is read or sent, and written in a stable order.
import {
  devicePicksKey,
  isWellFormedTablePath,
  nearestNames,
  normalizeTablePath,
  type TableDef,
} from '../catalogue/index.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { validateObject } from '../catalogue/validate.js';
import { UsageError } from '../errors.js';
import { isObject, keyId, normalizeObject, type Obj } from '../objects/normalize.js';
import { tableTypoHint } from '../request/table.js';

/** A keyed table's objects (in the device's order) or a singleton's one object. */
export type TableContent = Obj[] | Obj;

/** A config document: VDOM, then table path, then the table's content (CLI.md "Configuration as code"). */
export interface ConfigDocument {
  vdoms: Record<string, Record<string, TableContent>>;
}

/** One table of one VDOM of a document, with its catalogue entry. */
export interface DocumentTable {
  vdom: string;
  table: TableDef;
  content: TableContent;
}

export function normalizeContent(table: TableDef, content: TableContent): TableContent {
  return Array.isArray(content)
    ? content.map((object) => normalizeObject(table.fields, table.key, object))
    : normalizeObject(table.fields, table.key, content);
}

function where(vdom: string, tablePath: string, index?: number): string {
  return `${tablePath} (vdom ${vdom}${index === undefined ? '' : `, object ${index + 1}`})`;
}

function checkTable(
  source: string,
  vdom: string,
  path: string,
  content: unknown,
  catalogue: DocumentCatalogue,
): DocumentTable {
  const tablePath = normalizeTablePath(path);
  const wellFormed = isWellFormedTablePath(tablePath);
  const table = wellFormed ? catalogue.find(tablePath) : undefined;
  if (!table)
    throw new UsageError(
      `${source}: '${path}' (vdom ${vdom}) is not a table of the catalogue`,
      wellFormed
        ? tableTypoHint(catalogue, tablePath)
        : "'cmdb tables' lists them; a document names tables as area[.subarea]/table",
    );
  if (table.singleton && !isObject(content))
    throw new UsageError(`${source}: ${where(vdom, tablePath)} is a singleton table: give one object, not a list`);
  if (!table.singleton && !Array.isArray(content))
    throw new UsageError(`${source}: ${where(vdom, tablePath)} is a keyed table: give a list of objects`);
  const list = Array.isArray(content);
  const objects = list ? content : [content];
  objects.forEach((object, i) => {
    if (!isObject(object)) throw new UsageError(`${source}: ${where(vdom, tablePath, i)} is not an object`);
  });
  const normalized = (objects as Obj[]).map((object) => normalizeObject(table.fields, table.key, object));
  const seen = new Set<string>();
  normalized.forEach((object, i) => {
    const at = where(vdom, tablePath, list ? i : undefined);
    const problems = validateObject(table, object);
    if (problems.length)
      throw new UsageError(
        `${source}: ${at}: ${problems.map((p) => p.message).join('; ')}`,
        `see each field's type and limits with 'cmdb schema ${tablePath}'`,
      );
    if (!list || !table.key) return;
    const key = object[table.key];
    if (key === undefined || key === null || key === '')
      throw new UsageError(`${source}: ${at} has no '${table.key}', the table's key`);
    // Key 0: a new object whose key the device picks, never one already there (several may be).
    if (devicePicksKey(table, key)) return;
    if (seen.has(keyId(key))) throw new UsageError(`${source}: ${at} repeats the key ${JSON.stringify(key)}`);
    seen.add(keyId(key));
  });
  return { vdom, table, content: list ? normalized : normalized[0] };
}

/** How a table path on the line is looked up: the catalogue of the device it is meant for. */
export type FindTable = (path: string) => TableDef | undefined;

/**
 * Where a document's table paths are looked up (and a typo's nearest tables found): the catalogue of
 * the device it is meant for (default the shipped one).
 */
export type DocumentCatalogue = Pick<Catalogue, 'find' | 'summaries'>;

/**
 * Checks a parsed document (shape, tables, keys, field schema) and returns its tables in document
 * order. Anything wrong is a usage error naming where: nothing is read or sent before it is whole.
 */
export function readDocument(
  value: unknown,
  source: string,
  catalogue: DocumentCatalogue = SHIPPED_CATALOGUE,
): DocumentTable[] {
  if (!isObject(value) || !isObject(value.vdoms)) {
    throw new UsageError(
      `${source} is not a config document: it must hold 'vdoms', then VDOM names, then table paths`,
      "'cmdb export' writes one; see README 'Configuration as code'",
    );
  }
  const extra = Object.keys(value).filter((k) => k !== 'vdoms');
  if (extra.length)
    throw new UsageError(`${source}: unknown top-level field '${extra[0]}'`, "a config document holds only 'vdoms'");
  const tables: DocumentTable[] = [];
  for (const [vdom, byTable] of Object.entries(value.vdoms)) {
    if (!isObject(byTable)) throw new UsageError(`${source}: vdom ${vdom} must map table paths to their content`);
    // SPEC.md's name and the device's of a renamed table are the same table (CLI.md "Names").
    const named = new Map<string, string>();
    for (const [path, content] of Object.entries(byTable)) {
      const checked = checkTable(source, vdom, path, content, catalogue);
      const canonical = checked.table.aliasOf ?? checked.table.path;
      const other = named.get(canonical);
      if (other !== undefined)
        throw new UsageError(
          `${source}: vdom ${vdom} names the same table twice, as ${other} and ${checked.table.path}`,
          'keep one of the two names',
        );
      named.set(canonical, checked.table.path);
      tables.push(checked);
    }
  }
  return tables;
}

/**
 * The tables of a document (read from `source`) that the line names, either name of a renamed table
 * standing for it, and in the VDOMs of an explicit --vdom (`*`: all). A table named that the document
 * does not hold is a usage error: a typo or the wrong file, and comparing nothing would pass.
 */
export function narrowDocument(
  tables: DocumentTable[],
  source: string,
  inputs: string[],
  find: FindTable,
  vdoms: string[] | undefined,
): DocumentTable[] {
  let narrowed = tables;
  if (inputs.length) {
    const canonical = (table: TableDef) => table.aliasOf ?? table.path;
    const held = [...new Set(tables.map((t) => canonical(t.table)))];
    const wanted = new Map<string, string>();
    for (const input of inputs) {
      const path = normalizeTablePath(input);
      const table = find(path);
      wanted.set(table ? canonical(table) : path, path);
    }
    for (const [path, name] of wanted) {
      if (held.includes(path)) continue;
      const near = nearestNames(name, held, 3);
      throw new UsageError(
        `${name} is not in ${source}`,
        near.length
          ? `did you mean ${near.join(' or ')}?`
          : `${source} holds ${held.length ? held.join(', ') : 'no table'}`,
      );
    }
    narrowed = narrowed.filter((t) => wanted.has(canonical(t.table)));
  }
  if (vdoms && !vdoms.includes('*')) narrowed = narrowed.filter((t) => vdoms.includes(t.vdom));
  return narrowed;
}

/** The document of some tables, in the order given. */
export function buildDocument(tables: DocumentTable[]): ConfigDocument {
  const vdoms: ConfigDocument['vdoms'] = {};
  for (const { vdom, table, content } of tables) (vdoms[vdom] ??= {})[table.path] = content;
  return { vdoms };
}
