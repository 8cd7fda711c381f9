// A file in the device's syntax read against a catalogue (the target device's): which table each
// block is, which VDOM (or the device's global tables) it belongs to, each value typed by its field,
// and the verbs besides `set` as steps with their lines (CLI.md, "The device's own syntax").
// Recursion here follows the tree parseConf built, which is never deeper than MAX_NESTING.
import { devicePicksKey, entryKeyOf, nearestNames, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { ipv4Meaning } from '../catalogue/ipv4.js';
import { kindOf, memberField, tablePathOf } from './fields.js';
import { confError, parseConf, type ConfNode, type ParseOptions } from './read.js';
import { VDOM_TABLE, type Obj } from './write.js';

/** How a table path is looked up: the catalogue of the device the file is meant for. */
export type Lookup = (path: string) => TableDef | undefined;

export type Key = string | number;

export interface ReadOptions extends ParseOptions {
  lookup: Lookup;
  /** Where tables outside any `config vdom` block go that are not global (`--vdom`; default `root`). */
  vdom?: string;
  /** A block for a table the lookup does not know is an error, not a summary line. */
  strict?: boolean;
}

/** One object a file states: an `edit` block (the blocks of one key merged), or a singleton's lines. */
export interface ConfObject {
  /** The `edit` line (a singleton: its first `config` line). */
  line: number;
  /** The key as written (integers as numbers; 0 in an integer-keyed table: the device picks it); null: a singleton. */
  key: Key | null;
  /** The fields stated, typed by the field schema, the key included; `unset` ones at the catalogue's default. */
  fields: Obj;
  /**
   * Fields returned to their default by `unset` (the device's default may differ from the catalogue's);
   * in a sub-table entry `unset` gives the catalogue's default and is not listed.
   */
  unset: string[];
  /** `append <field> <v>...`: members to add to the device's current list (typed as `set` types them). */
  append: Obj;
  /** `unselect <field> <v>...`: members to remove from the device's current list. */
  unselect: Obj;
  /** The line that last stated each field, for messages about its value. */
  lines: Record<string, number>;
}

/** A verb of a table block other than `edit`, in file order. */
export type ConfStep =
  | { verb: 'delete'; line: number; key: Key }
  /** Delete the table's objects (in this VDOM) that the file does not state: `--prune` for this table. */
  | { verb: 'purge'; line: number }
  | { verb: 'rename'; line: number; from: Key; to: Key }
  | { verb: 'move'; line: number; key: Key; where: 'before' | 'after'; target: Key };

/** One table of one VDOM (`null`: a table held once for the device, CLI.md's `global:`), blocks merged. */
export interface ConfTable {
  vdom: string | null;
  /** The catalogue's entry (under the catalogue's path for a table SPEC.md renamed). */
  table: TableDef;
  /** The line of its first block. */
  line: number;
  /** A keyed table's objects in file order; a singleton's one object. */
  objects: ConfObject[];
  steps: ConfStep[];
}

/** Blocks for a table the lookup does not know: left out, summarised once. */
export interface UnknownBlock {
  path: string;
  /** The first such block's line. */
  line: number;
  count: number;
}

export interface ConfDocument {
  /** A whole configuration (a `#config-version=` header): compared as `defaults: excluded`, nested lists whole. */
  backup: boolean;
  /** A backup, or a first line `#cmdb:defaults=excluded`: a field left out is at its default. */
  defaultsExcluded: boolean;
  /** The leading `#name=value` comments (`config-version`, `buildno`, `global_vdom`...). */
  header: Record<string, string>;
  /** The release a backup's header names (`6.4.14`). */
  release?: string;
  /** The VDOMs the file names in `config vdom` blocks, in order. */
  vdoms: string[];
  tables: ConfTable[];
  unknown: UnknownBlock[];
}

/** A table's content as a config document holds it (CLI.md "Configuration as code"): objects, or one object. */
export function contentOf(table: ConfTable): Obj[] | Obj {
  return table.table.singleton ? (table.objects[0]?.fields ?? {}) : table.objects.map((o) => o.fields);
}

const INTEGER = /^-?\d+$/;
/** The fields `append` and `unselect` work on: member lists and multi-value fields. */
const LISTS = new Set(['members', 'multiple', 'multiple-quoted']);

/** What `unset` returns a field to: the catalogue's default, else empty; undefined for a number it does not know. */
function defaultOf(schema: FieldSchema): unknown {
  if (schema.type === 'array') return [];
  if (schema.default === undefined) return schema.type === 'integer' ? undefined : '';
  return schema.type === 'integer' && INTEGER.test(String(schema.default))
    ? Number(schema.default)
    : String(schema.default);
}

function newObject(line: number, key: Key | null, keyField: string | null): ConfObject {
  return {
    line,
    key,
    fields: key !== null && keyField ? { [keyField]: key } : {},
    unset: [],
    append: {},
    unselect: {},
    lines: {},
  };
}

/** Where a block stands: outside any VDOM block, in `config global`, or in a VDOM's. */
type Place = { in: 'top' } | { in: 'global' } | { in: 'vdom'; vdom: string };
const TOP: Place = { in: 'top' };
const GLOBAL: Place = { in: 'global' };

class Interpreter {
  private readonly tables = new Map<string, { table: ConfTable; byKey: Map<string, ConfObject> }>();
  private readonly unknown = new Map<string, UnknownBlock>();
  private readonly found = new Map<string, TableDef | null>();
  readonly vdoms: string[] = [];
  private readonly vdom: string;

  constructor(
    private readonly source: string,
    private readonly options: ReadOptions,
  ) {
    this.vdom = options.vdom ?? 'root';
  }

  result(): { tables: ConfTable[]; unknown: UnknownBlock[] } {
    return { tables: [...this.tables.values()].map((t) => t.table), unknown: [...this.unknown.values()] };
  }

  run(root: ConfNode): void {
    for (const node of root.children!) {
      if (node.kind === 'vdoms') this.vdomBlocks(node);
      else if (node.kind === 'global') for (const child of node.children!) this.tableBlock(child, GLOBAL);
      else this.tableBlock(node, TOP);
    }
  }

  private error(line: number, message: string, hint: string | null = null): never {
    throw confError(this.source, line, message, hint);
  }

  /** The catalogue's table of a path (its own path for one SPEC.md renamed), or undefined. */
  private find(path: string): TableDef | undefined {
    let table = this.found.get(path);
    if (table === undefined) {
      const hit = this.options.lookup(path);
      const known = hit && hit.known !== false ? hit : undefined;
      table = (known?.aliasOf ? this.options.lookup(known.aliasOf) : known) ?? known ?? null;
      this.found.set(path, table);
    }
    return table ?? undefined;
  }

  /** `config vdom`: each `edit <vdom>` names a VDOM (a `system/vdom` object) and holds its tables' blocks. */
  private vdomBlocks(node: ConfNode): void {
    const vdomTable = this.find(VDOM_TABLE);
    for (const edit of node.children!) {
      const name = edit.args[0];
      if (!this.vdoms.includes(name)) this.vdoms.push(name);
      const blocks = edit.children!.filter((c) => c.verb === 'config');
      const lines = edit.children!.filter((c) => c.verb !== 'config');
      if (!blocks.length || lines.length) {
        if (vdomTable) {
          const object = newObject(edit.line, name, vdomTable.key);
          this.fill(object, vdomTable.fields, lines, `${VDOM_TABLE} ${name}`, false);
          this.add(null, vdomTable, object);
        } else if (lines.length) this.unknownBlock(VDOM_TABLE, edit.line);
      }
      for (const block of blocks) this.tableBlock(block, { in: 'vdom', vdom: name });
    }
  }

  private unknownBlock(path: string, line: number): void {
    if (this.options.strict)
      this.error(line, `${path} is not a table of this device`, "'cmdb tables' lists the tables it has");
    const seen = this.unknown.get(path);
    if (seen) seen.count++;
    else this.unknown.set(path, { path, line, count: 1 });
  }

  /** The table a `config` names, and the key of `config <path> "<key>"` (one object opened directly). */
  private resolve(node: ConfNode): { path: string; table?: TableDef; key?: string } {
    const args = node.args;
    const whole = tablePathOf(args);
    const prefix = args.length >= 3 ? tablePathOf(args.slice(0, -1)) : undefined;
    const keyed = (path: string | undefined) => {
      const table = path === undefined ? undefined : this.find(path);
      return table && !table.singleton && table.key ? table : undefined;
    };
    if (node.lastQuoted && keyed(prefix)) return { path: prefix!, table: keyed(prefix), key: args[args.length - 1] };
    const table = whole === undefined ? undefined : this.find(whole);
    if (table) return { path: whole!, table };
    if (keyed(prefix)) return { path: prefix!, table: keyed(prefix), key: args[args.length - 1] };
    return { path: whole ?? args.join(' ') };
  }

  /** Where a table's objects go from a place (`both` tables in `config global`: by their `vdom` field). */
  private vdomFor(table: TableDef, place: Place, object?: Obj): string | null {
    if (table.scope === 'global') return null;
    if (place.in === 'vdom') return place.vdom;
    if (place.in === 'top') return this.vdom;
    if (table.scope !== 'both') return null;
    const named = object?.vdom;
    const first = Array.isArray(named) ? (named[0] as Obj | undefined)?.name : named;
    return typeof first === 'string' && first ? first : this.vdom;
  }

  private tableOf(
    vdom: string | null,
    table: TableDef,
    line: number,
  ): { table: ConfTable; byKey: Map<string, ConfObject> } {
    const id = `${vdom ?? ''}\0${table.path}`;
    let entry = this.tables.get(id);
    if (!entry) {
      entry = { table: { vdom, table, line, objects: [], steps: [] }, byKey: new Map() };
      this.tables.set(id, entry);
    }
    return entry;
  }

  /** Adds an object to its table, or merges it into the one of the same key stated before (key 0: always new). */
  private add(vdom: string | null, table: TableDef, object: ConfObject): void {
    const entry = this.tableOf(vdom, table, object.line);
    const key = object.key;
    const fresh = key !== null && devicePicksKey(table, key);
    const id = key === null ? '' : String(key);
    const target = fresh ? undefined : entry.byKey.get(id);
    if (!target) {
      entry.table.objects.push(object);
      if (!fresh) entry.byKey.set(id, object);
      return;
    }
    Object.assign(target.fields, object.fields);
    Object.assign(target.lines, object.lines);
    for (const name of object.unset) if (!target.unset.includes(name)) target.unset.push(name);
    for (const [name, value] of Object.entries(object.append)) target.append[name] = joined(target.append[name], value);
    for (const [name, value] of Object.entries(object.unselect))
      target.unselect[name] = joined(target.unselect[name], value);
  }

  private keyOf(table: TableDef, text: string, line: number): Key {
    if (table.keyType !== 'integer') return text;
    if (!INTEGER.test(text))
      this.error(line, `${table.path} is keyed by a number (${table.key}), not ${JSON.stringify(text)}`);
    return Number(text);
  }

  private tableBlock(node: ConfNode, place: Place): void {
    const { path, table, key } = this.resolve(node);
    if (!table) return this.unknownBlock(path, node.line);
    const where = table.path;
    if (key !== undefined) {
      const typed = this.keyOf(table, key, node.line);
      const object = newObject(node.line, typed, table.key);
      this.fill(object, table.fields, node.children!, `${where} ${JSON.stringify(typed)}`, false);
      return this.place(table, place, object);
    }
    if (table.singleton || !table.key) {
      for (const child of node.children!) {
        if (child.verb === 'edit')
          this.error(child.line, `edit in ${where}, a table of one object: set its fields directly`);
        if (child.verb !== 'config' && !['set', 'unset', 'append', 'unselect'].includes(child.verb))
          this.error(child.line, `${child.verb} in ${where}, a table of one object`);
      }
      const object = newObject(node.line, null, null);
      this.fill(object, table.fields, node.children!, where, false);
      return this.place(table, place, object);
    }
    // A block names its table (empty or not) in its VDOM; `both` tables in `config global` go where their objects say.
    const steps = () => this.tableOf(this.vdomFor(table, place), table, node.line).table.steps;
    if (place.in !== 'global' || table.scope !== 'both') steps();
    for (const child of node.children!) {
      const args = child.args;
      switch (child.verb) {
        case 'edit': {
          const typed = this.keyOf(table, args[0], child.line);
          const object = newObject(child.line, typed, table.key);
          this.fill(object, table.fields, child.children!, `${where} ${JSON.stringify(typed)}`, false);
          this.place(table, place, object);
          break;
        }
        case 'delete':
          steps().push({ verb: 'delete', line: child.line, key: this.keyOf(table, args[0], child.line) });
          break;
        case 'purge':
          steps().push({ verb: 'purge', line: child.line });
          break;
        case 'rename':
          steps().push({
            verb: 'rename',
            line: child.line,
            from: this.keyOf(table, args[0], child.line),
            to: this.keyOf(table, args[2], child.line),
          });
          break;
        case 'move':
          steps().push({
            verb: 'move',
            line: child.line,
            key: this.keyOf(table, args[0], child.line),
            where: args[1] as 'before' | 'after',
            target: this.keyOf(table, args[2], child.line),
          });
          break;
        default:
          this.error(
            child.line,
            `${child.verb} outside an edit block`,
            `${where} is a table of objects: edit <key> first, as 'cmdb get ${where} <key> -o cli' shows`,
          );
      }
    }
  }

  /** An object read on its own, added to its table once its fields (its `vdom`, for a `both` table) are known. */
  private place(table: TableDef, place: Place, object: ConfObject): void {
    this.add(this.vdomFor(table, place, object.fields), table, object);
  }

  private schemaOf(fields: Record<string, FieldSchema>, name: string, line: number, where: string): FieldSchema {
    const schema = fields[name];
    if (schema) return schema;
    const names = Object.keys(fields);
    // A table described without its fields (a device schema that gave none) takes any field, as text.
    if (!names.length) return { type: 'string' };
    const [near] = nearestNames(name, names);
    this.error(
      line,
      `${where} has no field '${name}'${near ? ` (did you mean '${near}'?)` : ''}`,
      `'cmdb schema ${where.split(' ')[0]}' lists its fields`,
    );
  }

  /** The statements of an object (or a sub-table entry: `nested`) into it. */
  private fill(
    object: ConfObject,
    fields: Record<string, FieldSchema>,
    children: ConfNode[],
    where: string,
    nested: boolean,
  ): void {
    for (const child of children) {
      const name = child.args[0];
      const schema = this.schemaOf(fields, name, child.line, where);
      object.lines[name] = child.line;
      switch (child.verb) {
        case 'set':
          object.fields[name] = this.value(schema, name, child.args.slice(1), child.line, where);
          break;
        case 'unset': {
          const value = defaultOf(schema);
          if (value === undefined) delete object.fields[name];
          else object.fields[name] = value;
          if (!nested && !object.unset.includes(name)) object.unset.push(name);
          break;
        }
        case 'append':
        case 'unselect': {
          if (nested)
            this.error(child.line, `${child.verb} inside a sub-table entry is not supported: set the whole list`);
          if (!LISTS.has(kindOf(schema)))
            this.error(child.line, `${child.verb} ${name}: ${name} is not a list of ${where}`, `set ${name} <value>`);
          const value = this.value(schema, name, child.args.slice(1), child.line, where);
          const into = child.verb === 'append' ? object.append : object.unselect;
          into[name] = joined(into[name], value);
          break;
        }
        case 'config':
          if (schema.type !== 'array')
            this.error(child.line, `${name} is not a sub-table of ${where}: set ${name} <value>`);
          object.fields[name] = this.subTable(schema, name, child, `${where} ${name}`);
          break;
        default:
          this.error(child.line, `${child.verb} here is not supported`);
      }
    }
  }

  /**
   * A nested `config <field>` block: its `edit` entries (merged by key) as a list, or, when it holds
   * `set` lines directly, one object (a group of settings the device keeps as one).
   */
  private subTable(schema: FieldSchema, name: string, node: ConfNode, where: string): Obj[] | Obj {
    const items = schema.items ?? {};
    const children = node.children!;
    const edits = children.some((c) => c.verb === 'edit');
    if (!edits) {
      const object = newObject(node.line, null, null);
      this.fill(object, items, children, where, true);
      return children.length ? object.fields : [];
    }
    const stray = children.find((c) => c.verb !== 'edit');
    if (stray) this.error(stray.line, `${stray.verb} outside an edit block`, `${name} holds entries: edit <key> first`);
    const key = entryKeyOf(items);
    const integer = key !== undefined && items[key]?.type === 'integer';
    const byKey = new Map<string, ConfObject>();
    for (const edit of children) {
      const text = edit.args[0];
      if (integer && !INTEGER.test(text))
        this.error(edit.line, `${where} entries are numbered, not ${JSON.stringify(text)}`);
      const typed: Key = integer ? Number(text) : text;
      let entry = byKey.get(String(typed));
      if (!entry) {
        entry = newObject(edit.line, typed, key ?? null);
        byKey.set(String(typed), entry);
      }
      this.fill(entry, items, edit.children!, `${where} ${JSON.stringify(typed)}`, true);
    }
    return [...byKey.values()].map((entry) => entry.fields);
  }

  /** The words after `set <field>` typed by the field: numbers, member lists, one space-joined string. */
  private value(schema: FieldSchema, name: string, words: string[], line: number, where: string): unknown {
    const kind = kindOf(schema);
    if (kind === 'table')
      this.error(line, `${name} is a sub-table of ${where}: write config ${name} with an edit block per entry`);
    if (kind === 'members') {
      const member = memberField(schema)!;
      return words.map((word) => ({ [member.name]: this.scalar(member.schema, member.name, [word], line) }));
    }
    return this.scalar(schema, name, words, line);
  }

  private scalar(schema: FieldSchema, name: string, words: string[], line: number): unknown {
    const text = words.join(' ');
    if (schema.type === 'integer') {
      if (!INTEGER.test(text)) this.error(line, `'${name}' is a number, not ${JSON.stringify(text)}`);
      return Number(text);
    }
    if (kindOf(schema) === 'classnet' && words.length === 1 && text.includes('/')) return ipv4Meaning(text) ?? text;
    return text;
  }
}

/** Two `append` (or `unselect`) values of one field as one. */
function joined(before: unknown, value: unknown): unknown {
  if (before === undefined) return value;
  if (Array.isArray(before) && Array.isArray(value)) return [...before, ...value];
  return `${String(before)} ${String(value)}`;
}

/**
 * Reads a file in the device's syntax against the catalogue of the device it is meant for; a usage
 * error (exit 2) naming `source` and the line for anything it cannot read. `source` is the file's name
 * as messages show it (`fw.conf`, `standard input`).
 */
export function readConf(text: string, source: string, options: ReadOptions): ConfDocument {
  const { root, header } = parseConf(text, source, options);
  const interpreter = new Interpreter(source, options);
  interpreter.run(root);
  const backup = 'config-version' in header;
  const release = /^[^-]+-(\d+(?:\.\d+)+)-/.exec(header['config-version'] ?? '')?.[1];
  return {
    backup,
    defaultsExcluded: backup || header['cmdb:defaults'] === 'excluded',
    header,
    ...(release ? { release } : {}),
    vdoms: interpreter.vdoms,
    ...interpreter.result(),
  };
}
