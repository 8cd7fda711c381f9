// The documentation: README.md is a short front page; every relative link of README.md and
// docs/**/*.md resolves to a file of the repository (and its #anchor to a heading there); nothing
// names a contract document users do not have; docs/reference.md is what the build writes from the
// help's data; every table path shown, in the docs and the help, is a table of the catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { allTables, areaOf, findTable } from '../../src/catalogue/index.js';
import { anchorOf, commandName, EXAMPLES, referencePage } from '../../src/cli/help.js';
import { COMMANDS } from '../../src/commands/registry.js';
import { ROOT } from '../helpers/cli.js';

/** README.md and every docs/**\/*.md, repository-relative. */
function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', ...walk('docs').sort()];
}

/** The text outside fenced code blocks and code spans. */
function prose(text: string): string {
  return text.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors of a document's headings, as GitHub makes them (a repeated one gets -1, -2...). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(m[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('README.md is a front page: under 250 lines, a table of contents, the demo and npm test', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n').length;
  assert.ok(lines < 250, `README.md has ${lines} lines`);
  assert.match(readme, /^## Contents$/m);
  assert.match(readme, /^npm install && npx cmdb --demo list \S+/m);
  assert.match(readme, /^npm test$/m);
  for (const [, target] of readme.matchAll(/^- \[[^\]]+\]\(#([^)]+)\)$/gm))
    assert.ok(anchors('README.md').has(target!), `contents: #${target}`);
});

test('every relative link of README.md and docs/ resolves to a file of the repository, and its anchor to a heading', () => {
  const broken: string[] = [];
  let links = 0;
  for (const file of documents()) {
    for (const m of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links++;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path ? join(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
      const inRepo = relative(ROOT, resolved);
      if (inRepo.startsWith('..') || !existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
      else if (anchor !== undefined) {
        if (!statSync(resolved).isFile() || !resolved.endsWith('.md'))
          broken.push(`${file}: ${target} (an anchor into a file that is not a document)`);
        else if (!anchors(inRepo).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${inRepo})`);
      }
    }
  }
  assert.ok(links > 20, `only ${links} links`);
  assert.deepEqual(broken, []);
});

test('nothing names a file users do not have (the contract documents of the development)', () => {
  const texts: [string, string][] = documents().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]);
  texts.push(['man/cmdb.1', readFileSync(join(ROOT, 'man/cmdb.1'), 'utf8')]);
  for (const [file, text] of texts) assert.doesNotMatch(text, /\b(SPEC|PROTOCOL|ARCHITECTURE|CLI)\.md\b/, file);
});

test('docs/reference.md is what the build writes from the help data (run `npm run build` after changing a command, option or exit code)', () => {
  const checkedIn = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8');
  assert.ok(
    checkedIn === referencePage(),
    'docs/reference.md differs from what src/cli/help.ts generates: run `npm run build` and commit docs/reference.md',
  );
});

/** The code of a document: its fenced blocks and code spans, where table paths and command lines stand. */
function code(text: string): string[] {
  const blocks = [...text.matchAll(/^\s*```[^\n]*\n([\s\S]*?)^\s*```\s*$/gm)].map((m) => m[1]!);
  // A code span may go on over a line break.
  const spans = [...text.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return [...blocks, ...spans];
}

/** Typos the docs show on purpose, as what cmdb refuses with a "did you mean". */
const TYPOS_SHOWN = ['firewall/adress', 'FIREWALL/address'];

test('every table path in the docs and the help is a table of the catalogue, and so is the table of every command shown', () => {
  for (const typo of TYPOS_SHOWN) assert.equal(findTable(typo), undefined, `${typo} is a table`);
  const areas = new Set(allTables().map((t) => areaOf(t.path)));
  // Commands whose first argument is a table (`get <table> [keys...]`).
  const tableFirst = COMMANDS.filter((def) => {
    const first = /[<[]([\w-]+)(?:\.\.\.)?[>\]]/.exec(def.signature)?.[1];
    return !def.parent && first !== undefined && def.args?.[first] === 'table';
  }).map((def) => def.signature.split(' ')[0]!);
  assert.ok(tableFirst.includes('delete') && tableFirst.includes('export'), tableFirst.join(' '));
  const command = new RegExp(`(?:^|[\\s\`'"(])(?:${tableFirst.join('|')}) +([^\\s\`'"()|>]+)`, 'gm');
  // A path of a catalogue area standing alone: not a part of a longer path, a URL or a file name.
  const path = /(?<![\w./:-])([a-z0-9][\w-]*(?:\.[\w+-]+)*\/[A-Za-z0-9][\w+-]*)(?![\w+/-]|\.\w)/g;
  const sources: [string, string[]][] = documents().map((f) => [f, code(readFileSync(join(ROOT, f), 'utf8'))]);
  sources.push(['cmdb --help', [...EXAMPLES]]);
  for (const def of COMMANDS)
    sources.push([`cmdb ${commandName(def)} --help`, [...(def.examples ?? []), ...(def.notes ?? []), def.description]]);
  const wrong: string[] = [];
  let seen = 0;
  for (const [where, texts] of sources) {
    for (const text of texts) {
      for (const [, candidate] of text.matchAll(path)) {
        if (!areas.has(areaOf(candidate!))) continue;
        seen++;
        if (!findTable(candidate!) && !TYPOS_SHOWN.includes(candidate!)) wrong.push(`${where}: ${candidate}`);
      }
      for (const [, word] of text.matchAll(command)) {
        // An option, a placeholder, a variable or its value (`export CMDB_HOST=...`), not a table path.
        if (/^[-<$[.]|=/.test(word!) || !/[./]/.test(word!) || TYPOS_SHOWN.includes(word!)) continue;
        seen++;
        if (!findTable(word!)) wrong.push(`${where}: ${word} (the table of a command)`);
      }
    }
  }
  assert.ok(seen > 100, `only ${seen} table paths found`);
  assert.deepEqual(wrong, []);
});
