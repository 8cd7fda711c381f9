// The device's configuration syntax written from objects of catalogued tables, as its `show` prints
// them (`show full-configuration`: every field; `show`: those that differ from their default), as a
// snippet of one VDOM or in the layout of a backup. A ConfWriter writes one object at a time, so a
// caller can stream a table page by page; writeConf writes a whole document.
import type { FieldSchema, TableDef } from '../catalogue/index.js';
import { ipv4Meaning } from '../catalogue/ipv4.js';
import { configWords, entryKey, kindOf, memberField, quote, type ValueKind } from './fields.js';

export type Obj = Record<string, unknown>;

/** One table's content in one place: a VDOM, or `null` for a table held once for the device. */
export interface ConfTableInput {
  vdom: string | null;
  table: TableDef;
  /** A keyed table's objects in the device's order, or a singleton's one object. */
  content: readonly Obj[] | Obj;
}

export interface WriteOptions {
  /** Every field (`show full-configuration`, the default), or only those that differ from their default (`show`). */
  fields?: 'all' | 'changed';
  /**
   * `snippet`: the tables as they are, no VDOM blocks (one VDOM; global tables beside it); `backup`:
   * the VDOM list, `config global` and one `config vdom` block per VDOM. Default: a backup when the
   * tables span several VDOMs or hold a global one.
   */
  layout?: 'snippet' | 'backup';
  /** Comment lines written first, `#` included (a backup's `#config-version=...` block). */
  header?: readonly string[];
  /** A whole document (`export`): with `fields: 'changed'` and no header it starts `#cmdb:defaults=excluded`. */
  document?: boolean;
  /** The VDOMs a backup lists first (default: the tables' VDOMs, or the names of `system/vdom`'s objects). */
  vdoms?: readonly string[];
  /** Leave out a table with nothing to print (a backup), instead of an empty `config ...` / `end`. */
  omitEmpty?: boolean;
  /** Whether a value is its field's default, for `fields: 'changed'` (default: the catalogue's `default`). */
  isDefault?: (field: FieldSchema, name: string, value: unknown) => boolean;
  /** How a secret that is not `ENC ...` yet is shown (the emulator encrypts it); default as it is, quoted. */
  secret?: (value: string, field: FieldSchema) => string;
}

/** The first line of a document written without the fields at their default (CLI.md "Defaults"). */
export const DEFAULTS_EXCLUDED = '#cmdb:defaults=excluded';

/** The table whose objects a backup lists first, in `config vdom`. */
export const VDOM_TABLE = 'system/vdom';

const INDENT = '    ';

function sameWords(a: string, b: string): boolean {
  const x = a.split(/\s+/).filter(Boolean).sort();
  const y = b.split(/\s+/).filter(Boolean).sort();
  return x.length === y.length && x.every((word, i) => word === y[i]);
}

/**
 * Whether a value is the catalogue's default for its field: an empty list, the field's `default`
 * (numbers by value, multi-value options as sets, IPv4 values by meaning: `0.0.0.0/0` is `0.0.0.0 0.0.0.0`), or, for a
 * field whose default the catalogue does not know, an empty string.
 */
export function isCatalogueDefault(field: FieldSchema, _name: string, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return false;
  const fallback = field.default;
  if (fallback === undefined) return value === '';
  const text = String(value).trim();
  if (typeof fallback === 'number' || typeof value === 'number')
    return text !== '' && String(fallback).trim() !== '' && Number(text) === Number(fallback);
  if (field.multiple) return sameWords(text, fallback);
  if (text === fallback) return true;
  if (field.format !== 'ipv4') return text.replace(/\s+/g, ' ') === fallback.replace(/\s+/g, ' ');
  const meaning = ipv4Meaning(text);
  return meaning !== undefined && meaning === ipv4Meaning(fallback);
}

/** A bare value the reader would split or misread is quoted instead. */
const UNSAFE_BARE = /["'\\\n\r]/;

function bare(text: string): string {
  return UNSAFE_BARE.test(text) ? quote(text) : text;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The table paths of a layout: global tables first, then each VDOM's, in the order given. */
function backupOrder(tables: readonly ConfTableInput[]): ConfTableInput[] {
  const global = tables.filter((t) => t.vdom === null);
  const vdoms = [...new Set(tables.flatMap((t) => (t.vdom === null ? [] : [t.vdom])))];
  return [...global, ...vdoms.flatMap((vdom) => tables.filter((t) => t.vdom === vdom))];
}

/**
 * Writes objects in the device's syntax, one call at a time: `start()`, then `open()` per table and
 * `object()` per object, then `finish()`; each returns the text to append. In the backup layout the
 * caller gives global tables first and each VDOM's tables together (writeConf orders them so).
 */
export class ConfWriter {
  private readonly changed: boolean;
  private readonly isDefault: NonNullable<WriteOptions['isDefault']>;
  private readonly backup: boolean;
  /** The place open: none yet, global, or a VDOM (backup layout); the snippet's one VDOM. */
  private scope: string | null | undefined = undefined;
  private table: TableDef | undefined;
  /** The `config ...` line of the open table, written with its first line of content. */
  private pending: string | undefined;

  constructor(private readonly options: WriteOptions & { layout: 'snippet' | 'backup' }) {
    this.changed = options.fields === 'changed';
    this.isDefault = options.isDefault ?? isCatalogueDefault;
    this.backup = options.layout === 'backup';
  }

  /** The header, the defaults mark, and in a backup the list of VDOMs (with `system/vdom`'s fields, if given). */
  start(vdoms: readonly string[] = [], vdomObjects: readonly Obj[] = [], vdomTable?: TableDef): string {
    let out = '';
    const header = this.options.header ?? [];
    if (this.changed && this.options.document && !header.length) out += `${DEFAULTS_EXCLUDED}\n`;
    for (const line of header) out += `${line}\n`;
    if (!this.backup || !vdoms.length) return out;
    const byName = new Map(vdomObjects.map((o) => [String(o.name), o]));
    out += 'config vdom\n';
    for (const vdom of vdoms) {
      out += `edit ${vdom}\n`;
      const object = byName.get(vdom);
      if (object && vdomTable) out += this.fieldLines(vdomTable.fields, object, vdomTable.key, INDENT);
      out += 'next\n';
    }
    return `${out}end\n`;
  }

  /** Opens a table's block: closes the one open, and enters `config global` or a VDOM's block as needed. */
  open(vdom: string | null, table: TableDef): string {
    let out = this.closeTable();
    if (this.backup) {
      if (vdom !== this.scope) {
        out += this.closeScope();
        out += vdom === null ? 'config global\n' : `config vdom\nedit ${vdom}\n`;
        this.scope = vdom;
      }
    } else if (vdom !== null) {
      if (this.scope !== undefined && this.scope !== vdom)
        throw new Error(`a snippet holds one VDOM, not ${this.scope} and ${vdom}`);
      this.scope = vdom;
    }
    this.table = table;
    this.pending = `config ${configWords(table.deviceName ?? table.path)}\n`;
    return out;
  }

  /** One object of the open table: its `edit` block, or a singleton's `set` lines. */
  object(object: Obj): string {
    const table = this.table;
    if (!table) throw new Error('no table is open');
    const inner = INDENT;
    let body: string;
    if (table.singleton || !table.key) body = this.fieldLines(table.fields, object, null, inner);
    else {
      const key = object[table.key];
      const name = table.keyType === 'integer' ? bare(textOf(key ?? 0)) : quote(textOf(key ?? ''));
      body = `${inner}edit ${name}\n${this.fieldLines(table.fields, object, table.key, inner + INDENT)}${inner}next\n`;
    }
    if (!body) return '';
    const out = (this.pending ?? '') + body;
    this.pending = undefined;
    return out;
  }

  /** Closes the open table, VDOM block and `config global`. */
  finish(): string {
    return this.closeTable() + this.closeScope();
  }

  private closeTable(): string {
    if (!this.table) return '';
    this.table = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending === undefined) return 'end\n';
    return this.options.omitEmpty ? '' : `${pending}end\n`;
  }

  private closeScope(): string {
    const scope = this.scope;
    if (!this.backup || scope === undefined) return '';
    this.scope = undefined;
    return scope === null ? 'end\n' : 'next\nend\n';
  }

  /** The fields of an object (or sub-table entry) at one indentation, in the catalogue's order, the key left out. */
  private fieldLines(fields: Record<string, FieldSchema>, object: Obj, key: string | null, pad: string): string {
    let out = '';
    for (const name in fields) {
      if (name === key || !(name in object)) continue;
      out += this.field(name, fields[name], object[name], pad);
    }
    let others: string[] | undefined;
    for (const name in object)
      if (!(name in fields) && name !== key && !name.startsWith('q_')) (others ??= []).push(name);
    if (others) for (const name of others.sort()) out += this.unknownField(name, object[name], pad);
    return out;
  }

  private field(name: string, schema: FieldSchema, value: unknown, pad: string): string {
    if (value === undefined || value === null) return '';
    const kind = kindOf(schema);
    if (kind === 'table') return this.subTable(name, schema, value, pad);
    if (this.changed && this.isDefault(schema, name, value)) return '';
    if (kind === 'members') {
      if (!Array.isArray(value)) return this.scalar(name, 'quoted', schema, value, pad);
      // An empty list, like an empty multi-value option: `unset` (every field is written).
      if (!value.length) return `${pad}unset ${name}\n`;
      const member = memberField(schema)!;
      const memberKind = kindOf(member.schema);
      const names = value.map((entry) => {
        const v = entry && typeof entry === 'object' ? (entry as Obj)[member.name] : entry;
        return this.valueText(memberKind, member.schema, v) ?? "''";
      });
      return `${pad}set ${name} ${names.join(' ')}\n`;
    }
    return this.scalar(name, kind, schema, value, pad);
  }

  /** A `set` line; an empty value is `unset` where empty is the field's default (as `show` prints), else `''`. */
  private scalar(name: string, kind: ValueKind, schema: FieldSchema, value: unknown, pad: string): string {
    const text = this.valueText(kind, schema, value);
    if (text !== undefined) return `${pad}set ${name} ${text}\n`;
    return this.isDefault(schema, name, value) ? `${pad}unset ${name}\n` : `${pad}set ${name} ''\n`;
  }

  /** A value as `set` writes it; undefined for an empty one. */
  private valueText(kind: ValueKind, schema: FieldSchema, value: unknown): string | undefined {
    const text = textOf(value);
    switch (kind) {
      case 'quoted':
        return text === '' ? "''" : quote(text);
      case 'secret': {
        if (text === '') return undefined;
        const shown = text.startsWith('ENC ') || !this.options.secret ? text : this.options.secret(text, schema);
        return shown.startsWith('ENC ') ? bare(shown) : quote(shown);
      }
      case 'classnet':
        if (text.trim() === '') return undefined;
        return bare(text.includes('/') ? (ipv4Meaning(text) ?? text) : text.trim());
      case 'multiple':
      case 'multiple-quoted': {
        const words = text.split(/\s+/).filter(Boolean);
        if (!words.length) return undefined;
        return words.map(kind === 'multiple' ? bare : quote).join(' ');
      }
      default:
        return text.trim() === '' ? undefined : bare(text);
    }
  }

  /** A sub-table: `config <field>` with an `edit` per entry, or (an object) its `set` lines directly. */
  private subTable(name: string, schema: FieldSchema, value: unknown, pad: string): string {
    const items = schema.items ?? {};
    const inner = pad + INDENT;
    if (Array.isArray(value)) {
      if (this.changed && !value.length) return '';
      const key = entryKey(schema) ?? null;
      const integer = key !== null && items[key]?.type === 'integer';
      let body = '';
      for (const entry of value) {
        if (!entry || typeof entry !== 'object') continue;
        const k = key === null ? undefined : (entry as Obj)[key];
        const shown = integer ? bare(textOf(k ?? 0)) : quote(textOf(k ?? ''));
        body += `${inner}edit ${shown}\n${this.fieldLines(items, entry as Obj, key, inner + INDENT)}${inner}next\n`;
      }
      return `${pad}config ${name}\n${body}${pad}end\n`;
    }
    if (typeof value !== 'object') return this.scalar(name, 'quoted', schema, value, pad);
    const body = this.fieldLines(items, value as Obj, null, inner);
    return this.changed && !body ? '' : `${pad}config ${name}\n${body}${pad}end\n`;
  }

  /** A field the catalogue does not describe: text quoted, numbers bare, a list of names on one `set`. */
  private unknownField(name: string, value: unknown, pad: string): string {
    if (value === undefined || value === null) return '';
    if (this.changed && (value === '' || (Array.isArray(value) && !value.length))) return '';
    const one = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : quote(textOf(v)));
    if (Array.isArray(value)) {
      const names = value.map((entry) => {
        if (!entry || typeof entry !== 'object') return one(entry);
        const keys = Object.keys(entry).filter((k) => !k.startsWith('q_'));
        return keys.length === 1 ? one((entry as Obj)[keys[0]]) : undefined;
      });
      if (names.every((n) => n !== undefined)) return names.length ? `${pad}set ${name} ${names.join(' ')}\n` : '';
    }
    return value === '' ? `${pad}set ${name} ''\n` : `${pad}set ${name} ${one(value)}\n`;
  }
}

/** Whether a set of tables needs the backup layout: several VDOMs, or a table held once for the device. */
export function needsBackupLayout(tables: readonly ConfTableInput[]): boolean {
  const vdoms = new Set<string>();
  for (const t of tables) {
    if (t.vdom === null) return true;
    vdoms.add(t.vdom);
  }
  return vdoms.size > 1;
}

/**
 * Tables as one text in the device's syntax (`-o cli`, `export -o cli`, the emulator's backup). In the
 * backup layout `system/vdom`'s objects are the leading VDOM list, not a table of `config global`.
 */
export function writeConf(tables: readonly ConfTableInput[], options: WriteOptions = {}): string {
  const layout = options.layout ?? (needsBackupLayout(tables) ? 'backup' : 'snippet');
  const writer = new ConfWriter({ ...options, layout });
  let ordered = layout === 'backup' ? backupOrder(tables) : [...tables];
  let vdoms: readonly string[] = [];
  let vdomObjects: readonly Obj[] = [];
  let vdomTable: TableDef | undefined;
  if (layout === 'backup') {
    const list = ordered.find((t) => (t.table.aliasOf ?? t.table.path) === VDOM_TABLE);
    if (list) {
      ordered = ordered.filter((t) => t !== list);
      vdomTable = list.table;
      vdomObjects = Array.isArray(list.content) ? (list.content as Obj[]) : [];
    }
    vdoms =
      options.vdoms ??
      (vdomObjects.length
        ? vdomObjects.map((o) => String(o.name))
        : [...new Set(ordered.flatMap((t) => (t.vdom === null ? [] : [t.vdom])))]);
  }
  const parts: string[] = [writer.start(vdoms, vdomObjects, vdomTable)];
  for (const { vdom, table, content } of ordered) {
    parts.push(writer.open(vdom, table));
    if (Array.isArray(content)) for (const object of content) parts.push(writer.object(object));
    else parts.push(writer.object(content as Obj));
  }
  parts.push(writer.finish());
  return parts.join('');
}
