// A config document (CLI.md "Configuration as code"): where it came from, the global tables once, then
// VDOMs, table paths and each table's content; read and checked whole before anything is read or sent,
// and written in a stable order.
import {
  devicePicksKey,
  isGlobal,
  isWellFormedTablePath,
  nearestNames,
  normalizeTablePath,
  type TableDef,
} from '../catalogue/index.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { validateObject } from '../catalogue/validate.js';
import { UsageError } from '../errors.js';
import { isObject, keyId, nameOf, normalizeObject, type Obj } from '../objects/normalize.js';
import { tableTypoHint } from '../request/table.js';
import { readConf, type ConfStep, type UnknownBlock } from '../syntax/index.js';

/** A keyed table's objects (in the device's order) or a singleton's one object. */
export type TableContent = Obj[] | Obj;

/** Where a document came from, as `export` writes it first: the device's serial number and release. */
export interface DocumentOrigin {
  serial?: string;
  version?: string;
}

/**
 * A config document (CLI.md "Configuration as code"): `defaults: excluded` when fields at their
 * default were left out, where it came from, the global tables once, then VDOM, table path, content.
 */
export interface ConfigDocument {
  defaults?: 'excluded';
  device?: DocumentOrigin;
  global?: Record<string, TableContent>;
  vdoms?: Record<string, Record<string, TableContent>>;
}

/** One table of a document, with its catalogue entry: of one VDOM, or (`vdom` null) a global table, held once. */
export interface DocumentTable {
  vdom: string | null;
  table: TableDef;
  content: TableContent;
  /** What a `.conf` says of the table besides its objects' fields (its verbs); absent for YAML and JSON. */
  verbs?: TableVerbs;
}

/** A `.conf` table's verbs (CLI.md "Verbs"), each with its line for messages. */
export interface TableVerbs {
  /** The file as messages name it (`'fw.conf'`). */
  source: string;
  /** By the index of an object in `content`: the members its `append` and `unselect` lines add and remove. */
  lists: Map<number, { line: number; append: Obj; unselect: Obj }>;
  /** By the index of an object in `content`: the fields its `unset` lines return to the device's default. */
  unset: Map<number, string[]>;
  /** `delete`, `purge`, `rename`, `move`, in file order. */
  steps: ConfStep[];
  /** A snippet (no backup header): its sub-table entries merge by key into the device's. */
  mergeEntries: boolean;
}

/** A document read and checked: its tables (the global ones first), where it came from, how it was written. */
export interface CheckedDocument {
  tables: DocumentTable[];
  device?: DocumentOrigin;
  /** `defaults: excluded`: a field it leaves out is at its default. */
  defaultsExcluded: boolean;
}

export function normalizeContent(table: TableDef, content: TableContent): TableContent {
  return Array.isArray(content)
    ? content.map((object) => normalizeObject(table.fields, table.key, object))
    : normalizeObject(table.fields, table.key, content);
}

/** `vdom root`, or `global` for the global tables. */
const placeOf = (vdom: string | null) => (vdom === null ? 'global' : `vdom ${vdom}`);

/** `firewall/policy (vdom root, object 2)`; `system/accprofile (global, object 2)`. */
function where(vdom: string | null, tablePath: string, index?: number): string {
  return `${tablePath} (${placeOf(vdom)}${index === undefined ? '' : `, object ${index + 1}`})`;
}

function checkTable(
  source: string,
  vdom: string | null,
  path: string,
  content: unknown,
  catalogue: DocumentCatalogue,
  lines?: { table: number; objects: number[]; fields: Record<string, number>[] },
): DocumentTable {
  const tablePath = normalizeTablePath(path);
  const wellFormed = isWellFormedTablePath(tablePath);
  const table = wellFormed ? catalogue.find(tablePath) : undefined;
  if (!table)
    throw new UsageError(
      `${source}: '${path}' (${placeOf(vdom)}) is not a table of the catalogue`,
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
  const names = new Set<string>();
  normalized.forEach((object, i) => {
    // A `.conf` names the line of the object's `edit`: `'fw.conf':12: firewall/address (vdom root, object 3)`.
    const file = lines ? `${source}:${lines.objects[i] ?? lines.table}` : source;
    const at = where(vdom, tablePath, list ? i : undefined);
    const problems = validateObject(table, object);
    // A `.conf`: the line of the first field at fault (`member.name` → `member`'s line), else the object's.
    const line = lines?.fields[i]?.[problems[0]?.field.split('.')[0] ?? ''];
    if (problems.length)
      throw new UsageError(
        `${line === undefined ? file : `${source}:${line}`}: ${at}: ${problems.map((p) => p.message).join('; ')}`,
        `see each field's type and limits with 'cmdb schema ${tablePath}'`,
      );
    if (!list || !table.key) return;
    const key = object[table.key];
    if (key === undefined || key === null || key === '')
      throw new UsageError(`${file}: ${at} has no '${table.key}', the table's key`);
    // Key 0: the device picks the key; such objects are told apart by their name (CLI.md "Key 0").
    if (devicePicksKey(table, key)) {
      const name = nameOf(table, object);
      if (name === undefined) return;
      if (names.has(name)) throw new UsageError(`${file}: ${at} repeats the name ${JSON.stringify(name)} under key 0`);
      names.add(name);
      return;
    }
    if (seen.has(keyId(key))) throw new UsageError(`${file}: ${at} repeats the key ${JSON.stringify(key)}`);
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

const TOP_LEVEL = ['defaults', 'device', 'global', 'vdoms'];

/** `defaults:` and `device:`, checked. */
function headOf(value: Record<string, unknown>, source: string): Omit<CheckedDocument, 'tables'> {
  if (value.defaults !== undefined && value.defaults !== 'excluded')
    throw new UsageError(
      `${source}: 'defaults' must be 'excluded', not ${JSON.stringify(value.defaults)}`,
      "'cmdb export --exclude-default-values' writes it; leave it out of a document that states every field",
    );
  const device = value.device;
  if (device === undefined) return { defaultsExcluded: value.defaults === 'excluded' };
  if (!isObject(device) || Object.entries(device).some(([k, v]) => !['serial', 'version'].includes(k) || !isText(v)))
    throw new UsageError(
      `${source}: 'device' must be {serial, version}, the device the document came from`,
      "'cmdb export' writes it",
    );
  const origin: DocumentOrigin = {
    ...(device.serial !== undefined ? { serial: String(device.serial) } : {}),
    ...(device.version !== undefined ? { version: String(device.version) } : {}),
  };
  return { device: origin, defaultsExcluded: value.defaults === 'excluded' };
}

const isText = (v: unknown) => typeof v === 'string' || typeof v === 'number';

/**
 * Checks a parsed document (shape, tables, keys, field schema) and returns its tables, global ones
 * first, then VDOM by VDOM in document order. A global table found under a VDOM (documents written
 * before `global:`) is taken as global; copies that differ are a usage error. Anything wrong is a
 * usage error naming where: nothing is read or sent before the document is whole.
 */
export function readDocument(
  value: unknown,
  source: string,
  catalogue: DocumentCatalogue = SHIPPED_CATALOGUE,
): CheckedDocument {
  if (!isObject(value) || !(isObject(value.vdoms) || isObject(value.global))) {
    throw new UsageError(
      `${source} is not a config document: it must hold 'vdoms' (VDOM names, then table paths) or 'global'`,
      "'cmdb export' writes one; see README 'Configuration as code'",
    );
  }
  const extra = Object.keys(value).filter((k) => !TOP_LEVEL.includes(k));
  if (extra.length)
    throw new UsageError(
      `${source}: unknown top-level field '${extra[0]}'`,
      `a config document holds only ${TOP_LEVEL.join(', ')}`,
    );
  for (const section of ['vdoms', 'global'] as const)
    if (value[section] !== undefined && !isObject(value[section]))
      throw new UsageError(`${source}: '${section}' must map ${section === 'vdoms' ? 'VDOM names' : 'table paths'}`);
  const head = headOf(value, source);
  const global = new Map<string, DocumentTable & { from: string }>();
  const tables: DocumentTable[] = [];
  const sections: [string | null, unknown][] = [
    ...(isObject(value.global) ? [[null, value.global] as [null, unknown]] : []),
    ...Object.entries(isObject(value.vdoms) ? value.vdoms : {}),
  ];
  for (const [vdom, byTable] of sections) {
    if (!isObject(byTable)) throw new UsageError(`${source}: vdom ${vdom} must map table paths to their content`);
    // SPEC.md's name and the device's of a renamed table are the same table (CLI.md "Names").
    const named = new Map<string, string>();
    for (const [path, content] of Object.entries(byTable)) {
      const checked = checkTable(source, vdom, path, content, catalogue);
      const canonical = checked.table.aliasOf ?? checked.table.path;
      const other = named.get(canonical);
      if (other !== undefined)
        throw new UsageError(
          `${source}: ${placeOf(vdom)} names the same table twice, as ${other} and ${checked.table.path}`,
          'keep one of the two names',
        );
      named.set(canonical, checked.table.path);
      if (!isGlobal(checked.table)) {
        if (vdom === null)
          throw new UsageError(
            `${source}: ${checked.table.path} is not a global table: its objects belong to a VDOM`,
            'put it under vdoms.<vdom>',
          );
        tables.push(checked);
        continue;
      }
      // A global table is one for the device: a copy under each VDOM (an older document) is the same table.
      const held = global.get(canonical);
      const from = placeOf(vdom);
      if (!held) global.set(canonical, { ...checked, vdom: null, from });
      else if (JSON.stringify(held.content) !== JSON.stringify(checked.content))
        throw new UsageError(
          `${source}: ${checked.table.path} is global (one for the whole device), ` +
            `and ${held.from} and ${from} hold different copies of it`,
          "keep one copy, under 'global:'",
        );
    }
  }
  return { ...head, tables: [...[...global.values()].map(({ from: _, ...t }) => t), ...tables] };
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
  // Global tables belong to no VDOM: --vdom leaves them in.
  if (vdoms && !vdoms.includes('*')) narrowed = narrowed.filter((t) => t.vdom === null || vdoms.includes(t.vdom));
  return narrowed;
}

/**
 * The document of some tables, in the order given: `defaults: excluded` first when fields at their
 * default were left out, then where it came from, the global tables once, then each VDOM's.
 */
export function buildDocument(
  tables: DocumentTable[],
  head: { device?: DocumentOrigin; defaultsExcluded?: boolean } = {},
): ConfigDocument {
  const global: Record<string, TableContent> = {};
  const vdoms: Record<string, Record<string, TableContent>> = {};
  for (const { vdom, table, content } of tables) {
    if (vdom === null) global[table.path] = content;
    else (vdoms[vdom] ??= {})[table.path] = content;
  }
  return {
    ...(head.defaultsExcluded ? { defaults: 'excluded' as const } : {}),
    ...(head.device ? { device: head.device } : {}),
    ...(Object.keys(global).length ? { global } : {}),
    ...(Object.keys(vdoms).length || !Object.keys(global).length ? { vdoms } : {}),
  };
}

/** A `.conf` read as a document: its tables as a YAML document's are, and what only that syntax says. */
export interface ConfCheckedDocument extends CheckedDocument {
  /** A whole configuration (a `#config-version=` header): with --prune every table it could hold counts as named. */
  backup: boolean;
  /** The VDOMs its `config vdom` blocks name, in order (none: a snippet, read into one VDOM). */
  vdoms: string[];
  /** Blocks for tables the catalogue does not know, left out (summarised once by the caller). */
  unknown: UnknownBlock[];
}

/**
 * A file in the device's syntax (CLI.md "The device's own syntax") as a document: the same checks as a
 * YAML document's tables (each error naming the file and line), global tables once, blocks outside any
 * `config vdom` of a table that is not global in `vdom`, and each table's verbs beside its objects.
 */
export function readConfDocument(
  text: string,
  source: string,
  catalogue: DocumentCatalogue,
  options: { vdom?: string; strict?: boolean } = {},
): ConfCheckedDocument {
  const conf = readConf(text, source, { lookup: (path) => catalogue.find(path), ...options });
  const tables: DocumentTable[] = [];
  for (const t of conf.tables) {
    const content = t.table.singleton ? (t.objects[0]?.fields ?? {}) : t.objects.map((o) => o.fields);
    const lines = { table: t.line, objects: t.objects.map((o) => o.line), fields: t.objects.map((o) => o.lines) };
    const checked = checkTable(source, t.vdom, t.table.path, content, catalogue, lines);
    const lists = new Map<number, { line: number; append: Obj; unselect: Obj }>();
    const unset = new Map<number, string[]>();
    t.objects.forEach((o, i) => {
      if (Object.keys(o.append).length || Object.keys(o.unselect).length)
        lists.set(i, { line: o.line, append: o.append, unselect: o.unselect });
      if (o.unset.length) unset.set(i, o.unset);
    });
    const verbs = { source, lists, unset, steps: t.steps, mergeEntries: !conf.backup };
    tables.push(lists.size || unset.size || t.steps.length || !conf.backup ? { ...checked, verbs } : checked);
  }
  // Global tables first, as every document's (readDocument).
  return {
    tables: [...tables.filter((t) => t.vdom === null), ...tables.filter((t) => t.vdom !== null)],
    defaultsExcluded: conf.defaultsExcluded,
    ...(conf.release ? { device: { version: conf.release } } : {}),
    backup: conf.backup,
    vdoms: conf.vdoms,
    unknown: conf.unknown,
  };
}
