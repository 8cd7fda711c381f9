#!/usr/bin/env node
// Writes man/cmdb.1 from the compiled help module: the man page and `cmdb --help` share one source
// (the command registry, the options table, the exit codes). Run by `npm run build`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const { manPage } = await import('../dist/src/cli/help.js');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
mkdirSync(new URL('../man/', import.meta.url), { recursive: true });
writeFileSync(new URL('../man/cmdb.1', import.meta.url), manPage(version));
