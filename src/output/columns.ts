// Which columns a table or csv shows: the key first, then the fields the rows have or --fields names.
import { isMetaField } from '../catalogue/validate.js';
import type { Row } from './types.js';

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
