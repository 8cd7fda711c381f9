#!/usr/bin/env node
// Writes man/cmdb.1 and docs/reference.md from the compiled help module: the man page, the command
// reference and `cmdb --help` share one source (the command registry, the options table, the exit
// codes). Run by `npm run build`. man/cmdb.1 is a build product; docs/reference.md is checked in
// (test/docs/docs.test.ts fails when it differs from what this script writes).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const { manPage, referencePage } = await import('../dist/src/cli/help.js');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
mkdirSync(new URL('../man/', import.meta.url), { recursive: true });
writeFileSync(new URL('../man/cmdb.1', import.meta.url), manPage(version));
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(new URL('../docs/reference.md', import.meta.url), referencePage());
