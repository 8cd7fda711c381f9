#!/usr/bin/env node
// Build step (after tsc): the catalogue as the files a run reads (README "The catalogue"), from
// src/catalogue/tables-6.4.14.json (SPEC.md's 42) and tables-6.4.14-device.json (the device's 472):
//   dist/src/catalogue/data/index.json    every table's summary, without fields (tables, completion,
//                                         "did you mean");
//   dist/src/catalogue/data/all.json      every table whole (export, the emulator);
//   dist/src/catalogue/data/t/<name>.json one table whole: a command reads the one it touches;
//   dist/src/catalogue/data/referrers.json per table, the tables that can name its objects;
//   dist/src/catalogue/data/factory-objects.json the factory objects (factory-objects-6.4.14.json)
//                                         under the catalogue's paths.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCatalogue, compileFactoryObjects, compileReferrers } from '../dist/src/catalogue/compile.js';
import { tableFileName } from '../dist/src/catalogue/names.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (name) => JSON.parse(readFileSync(join(root, 'src/catalogue', name), 'utf8'));
const device = read('tables-6.4.14-device.json');
const spec = read('tables-6.4.14.json');
const tables = compileCatalogue(device.tables, spec.tables);

const out = join(root, 'dist/src/catalogue/data');
const temp = `${out}.tmp`;
rmSync(temp, { recursive: true, force: true });
mkdirSync(join(temp, 't'), { recursive: true });
const names = new Set();
for (const table of tables) {
  const name = tableFileName(table.path);
  if (names.has(name.toLowerCase())) throw new Error(`two tables share the file name ${name}`);
  names.add(name.toLowerCase());
  writeFileSync(join(temp, 't', name), JSON.stringify(table));
}
writeFileSync(join(temp, 'all.json'), JSON.stringify({ release: device.release, tables }));
const summaries = tables.map(({ fields, ...summary }) => summary);
writeFileSync(join(temp, 'index.json'), JSON.stringify({ release: device.release, tables: summaries }));
writeFileSync(join(temp, 'referrers.json'), JSON.stringify(compileReferrers(tables)));
writeFileSync(
  join(temp, 'factory-objects.json'),
  JSON.stringify(compileFactoryObjects(read('factory-objects-6.4.14.json'))),
);
rmSync(out, { recursive: true, force: true });
renameSync(temp, out);
process.stdout.write(
  `catalogue: ${tables.length} tables (${tables.filter((t) => t.spec).length} of SPEC.md) into dist/src/catalogue/data/\n`,
);
