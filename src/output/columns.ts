// Which columns a table or csv shows (CLI.md, "Output"): exactly those asked for (--fields, --columns),
// every one (--wide), a table's chosen set, or the key, `name` and the fields that carry information.
import type { FieldSchema } from '../catalogue/index.js';
import { isMetaField } from '../catalogue/validate.js';
import { sameValue } from '../objects/compare.js';
import { CHOSEN_COLUMNS } from './chosen.js';
import type { Row, TableFields } from './types.js';

export { isMetaField };

export interface ColumnChoice {
  keyField?: string | null;
  /** Exactly these columns, in this order, when the user asked --fields. */
  fields?: string[];
  /** Leave out q_* meta fields (table); csv keeps every column. */
  hideMeta: boolean;
  /** Columns never taken from the rows (byVdom puts its own `vdom` first). */
  exclude?: readonly string[];
  /** Meta fields shown although hideMeta (`q_ref` with --with-meta). */
  showMeta?: readonly string[];
}

/** The key column first, then every other field in first-seen order across the rows. */
export function chooseColumns(rows: readonly Row[], choice: ColumnChoice): string[] {
  const exclude = new Set(choice.exclude ?? []);
  if (choice.fields && choice.fields.length > 0) return choice.fields.filter((f) => !exclude.has(f));
  const seen = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row)) seen.add(name);
  const columns: string[] = [];
  const key = choice.keyField;
  if (key && seen.has(key) && !exclude.has(key)) columns.push(key);
  for (const name of seen) {
    if (name === key || exclude.has(name)) continue;
    if (choice.hideMeta && isMetaField(name) && !choice.showMeta?.includes(name)) continue;
    columns.push(name);
  }
  return columns;
}

/** A value that shows nothing: absent, empty text, an empty list or object. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/**
 * Whether a value tells a person something: not empty, and other than its field's default (numbers by
 * value, multi-value fields as sets, addresses by meaning); a field without a default, any value.
 */
export function carriesInformation(value: unknown, field: FieldSchema | undefined): boolean {
  if (isEmptyValue(value)) return false;
  return field?.default === undefined || !sameValue(field, field.default, value);
}

/** What a table knows of each column after seeing every row. */
export interface ColumnsSeen {
  /** Every field of the rows, in first-seen order (meta fields a table hides left out). */
  names: readonly string[];
  /** Some row has a value in it. */
  filled(name: string): boolean;
  /** Some row has a value in it other than the field's default. */
  informative(name: string): boolean;
}

/** How a table is asked to choose: the parts of RenderOptions that decide its columns. */
export interface ColumnView {
  keyField?: string | null;
  fields?: string[];
  wide?: boolean;
  showMeta?: readonly string[];
  schema?: TableFields;
}

/** `name type? member` → each column and whether it needs a value other than its default. */
function chosenSet(path: string): { name: string; informative: boolean }[] | undefined {
  const text = Object.hasOwn(CHOSEN_COLUMNS, path) ? CHOSEN_COLUMNS[path] : undefined;
  return text?.split(' ').map((word) => ({ name: word.replace(/\?$/, ''), informative: word.endsWith('?') }));
}

/** Fields that never count as information by themselves: the object's UUID. */
const NOT_INFORMATION = new Set(['uuid']);

/**
 * Where a column goes, lowest first (ties keep the order the rows give): the key, the meta fields asked
 * for, then (a read's table without --wide) the table's chosen set, `name`, the catalogue's fields in
 * its order; any other field after them.
 */
export function columnRank(view: ColumnView): (name: string) => number {
  const ranks = new Map<string, number>();
  const place = (name: string) => {
    if (!ranks.has(name)) ranks.set(name, ranks.size);
  };
  if (view.keyField) place(view.keyField);
  for (const name of view.showMeta ?? []) place(name);
  if (view.schema && !view.wide) {
    for (const c of chosenSet(view.schema.path) ?? []) place(c.name);
    place('name');
    for (const name of Object.keys(view.schema.fields)) place(name);
  }
  return (name) => ranks.get(name) ?? Number.POSITIVE_INFINITY;
}

/**
 * The columns of a table, in order (columnRank). `fields`: exactly those. `wide`, or no catalogue
 * facts: every column. Otherwise the key, the meta fields asked for, the table's chosen set where
 * filled; then (one object's `field  value` rows, or a table without a chosen set) `name`, and every
 * field that carries information in some row, `uuid` aside.
 */
export function tableColumns(seen: ColumnsSeen, view: ColumnView, list: boolean): string[] {
  if (view.fields?.length) return view.fields;
  const rank = columnRank(view);
  const byRank = (names: readonly string[]) =>
    names
      .map((name, i) => ({ name, i, rank: rank(name) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((c) => c.name);
  const schema = view.schema;
  if (view.wide || !schema) return byRank(seen.names);
  const chosen = new Map((chosenSet(schema.path) ?? []).map((c) => [c.name, c.informative]));
  const shown = (name: string): boolean => {
    if (name === view.keyField || view.showMeta?.includes(name)) return true;
    const informative = chosen.get(name);
    if (informative !== undefined) return informative ? seen.informative(name) : seen.filled(name);
    if (list && chosen.size) return false;
    if (name === 'name') return seen.filled(name);
    return !NOT_INFORMATION.has(name) && seen.informative(name);
  };
  return byRank(seen.names.filter(shown));
}

/** What tableColumns needs of rows held whole (one object, or the rows of a list already read). */
export function columnsSeenIn(rows: readonly Row[], choice: ColumnChoice, schema?: TableFields): ColumnsSeen {
  const names = chooseColumns(rows, { ...choice, fields: undefined });
  const fields = schema?.fields ?? {};
  return {
    names,
    filled: (name) => rows.some((row) => !isEmptyValue(row[name])),
    informative: (name) => rows.some((row) => carriesInformation(row[name], fields[name])),
  };
}
