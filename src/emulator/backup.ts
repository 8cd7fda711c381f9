import { allTables, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { DEVICE } from './envelope.js';
import { maskSecret } from './render.js';
import { isDefault, subKeyOf, type Fields, type Obj } from './schema.js';
import { KeyedTable, type Database } from './store.js';

const INDENT = '    ';

/** `firewall.ipmacbinding/table` → `firewall ipmacbinding table`, as the CLI names the table. */
function cliPath(tablePath: string): string {
  return tablePath.replace(/[./]/g, ' ');
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A value as `set` writes it: options, numbers and addresses bare, text quoted, secrets encrypted. */
function cliValue(field: FieldSchema, value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = String(value);
  if (field.format === 'password') return String(maskSecret(text));
  if (field.enum || field.multiple || field.format) return text;
  return quote(text);
}

function objectLines(fields: Fields, object: Obj, keyField: string | null, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const lines: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const value = object[name];
    if (name === keyField || value === undefined || value === null || isDefault(field, value, name)) continue;
    if (field.type !== 'array') {
      lines.push(`${pad}set ${name} ${cliValue(field, value)}`);
      continue;
    }
    const items = field.items ?? {};
    const subKey = subKeyOf(items);
    const entries = value as Obj[];
    if (Object.keys(items).length === 1) {
      // A reference list: `set member "a" "b"`.
      lines.push(`${pad}set ${name} ${entries.map((entry) => cliValue(items[subKey], entry[subKey])).join(' ')}`);
      continue;
    }
    lines.push(`${pad}config ${name}`);
    for (const entry of entries) lines.push(...editBlock(items, entry, subKey, depth + 1));
    lines.push(`${pad}end`);
  }
  return lines;
}

function editBlock(fields: Fields, object: Obj, keyField: string, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const key = object[keyField];
  const name = typeof key === 'number' ? String(key) : quote(String(key ?? ''));
  return [`${pad}edit ${name}`, ...objectLines(fields, object, keyField, depth + 1), `${pad}next`];
}

function tableLines(table: TableDef, db: Database, vdom: string): string[] {
  const state = db.table(vdom, table.path);
  if (state instanceof KeyedTable) {
    if (state.size === 0) return [];
    const body = state.all().flatMap((row) => editBlock(table.fields, row, table.key!, 1));
    return [`config ${cliPath(table.path)}`, ...body, 'end'];
  }
  const body = objectLines(table.fields, state.object, null, 1);
  return body.length ? [`config ${cliPath(table.path)}`, ...body, 'end'] : [];
}

/**
 * The configuration as the device's CLI text (`show full-configuration`
 * shape, values that differ from the defaults), with the header a backup
 * starts with. `global`: every VDOM; `vdom`: the VDOMs given.
 */
export function configBackup(
  db: Database,
  vdoms: readonly string[],
  scope: 'global' | 'vdom',
  user: string,
  device: { tables?: TableDef[]; version?: string; build?: number } = {},
): string {
  const tables = device.tables ?? allTables();
  const release = (device.version ?? DEVICE.version).replace(/^v/, '');
  const build = device.build ?? DEVICE.build;
  const body = vdoms.flatMap((vdom) => [
    `edit ${vdom}`,
    ...tables.flatMap((table) => tableLines(table, db, vdom)),
    'next',
  ]);
  // After the body, which made every table it shows: the sum moves with every change of any of them.
  const version = [...db.entries()].reduce((sum, [, , state]) => sum + state.revision, 0);
  const lines = [
    `#config-version=${DEVICE.platform}-${release}-FW-build${build}-${DEVICE.buildDate}:opmode=0:vdom=1:user=${user}`,
    `#conf_file_ver=${version}`,
    `#buildno=${build}`,
    `#global_vdom=${scope === 'global' ? 1 : 0}`,
  ];
  if (scope === 'global') lines.push('config vdom', ...db.vdoms.flatMap((vdom) => [`edit ${vdom}`, 'next']), 'end');
  lines.push('config vdom', ...body, 'end');
  return `${lines.join('\n')}\n`;
}
