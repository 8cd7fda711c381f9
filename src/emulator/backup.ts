// The emulator's configuration backup (monitor/system/config/backup): its state in the device's own
// syntax, as a backup holds it.
import { allTables, type TableDef } from '../catalogue/index.js';
import { writeConf, type ConfTableInput } from '../syntax/index.js';
import { DEVICE } from './envelope.js';
import { maskSecret } from './render.js';
import { isDefault, type Obj } from './schema.js';
import { KeyedTable, type Database } from './store.js';

/** A table's content as the store holds it: one VDOM's, or (`null`) the device's one copy of a global table. */
function contentOf(db: Database, table: TableDef, vdom: string | null): Obj[] | Obj {
  const state = db.table(vdom ?? db.vdoms[0], table.path);
  return state instanceof KeyedTable ? [...state.all()] : state.object;
}

/**
 * The configuration as the device's backup holds it (`show`: values that differ from the defaults, in
 * the device's syntax, src/syntax), with the header a backup starts with. `global`: the VDOM list, the
 * global tables in `config global`, then every VDOM's tables; `vdom`: the VDOMs given, their tables only.
 */
export function configBackup(
  db: Database,
  vdoms: readonly string[],
  scope: 'global' | 'vdom',
  user: string,
  device: { tables?: TableDef[]; version?: string; build?: number } = {},
): string {
  const tables = (device.tables ?? allTables()).filter((table) => !table.aliasOf);
  const global = (table: TableDef) => table.scope === 'global';
  const content: ConfTableInput[] = [];
  if (scope === 'global')
    for (const table of tables.filter(global)) content.push({ vdom: null, table, content: contentOf(db, table, null) });
  for (const vdom of vdoms)
    for (const table of tables) if (!global(table)) content.push({ vdom, table, content: contentOf(db, table, vdom) });
  // After reading every table shown (each made on first read): the sum moves with every change of any of them.
  const version = [...db.entries()].reduce((sum, [, , state]) => sum + state.revision, 0);
  const release = (device.version ?? DEVICE.version).replace(/^v/, '');
  const build = device.build ?? DEVICE.build;
  const header = [
    `#config-version=${DEVICE.platform}-${release}-FW-build${build}-${DEVICE.buildDate}:opmode=0:vdom=1:user=${user}`,
    `#conf_file_ver=${version}`,
    `#buildno=${build}`,
    `#global_vdom=${scope === 'global' ? 1 : 0}`,
  ];
  return writeConf(content, {
    layout: 'backup',
    fields: 'changed',
    header,
    vdoms: scope === 'global' ? db.vdoms : [],
    omitEmpty: true,
    isDefault: (field, name, value) => isDefault(field, value, name),
    secret: (value, field) => (field.format === 'password' ? String(maskSecret(value)) : value),
  });
}
