// Help and the man page, from data only: the command registry, the options table and the exit codes.
// commander prints this text for `--help`; the build writes the man page from the same functions, so
// the two never disagree, and a path that answers --help without commander can print it as well.
import { COMMANDS, PARENTS, type CommandDef } from '../commands/registry.js';
import type { HelpGroup } from '../grammar/types.js';
import { EXIT_CODES } from '../errors.js';
import { SEVERITY } from '../severity.js';
import { environmentHelp, GLOBAL_OPTIONS, type GlobalOption } from '../settings.js';

const SUMMARY =
  'Administer the configuration database (CMDB) of a network security device (release 6.4.14) through its REST API.';

/** Help groups in the order help lists them. */
const GROUPS: readonly HelpGroup[] = ['objects', 'metadata', 'configuration as code', 'devices and login', 'tools'];

/** Examples of the whole tool: the first things a new user types. */
export const EXAMPLES: readonly string[] = [
  'cmdb --demo list firewall/policy        # try it on the built-in device',
  'printenv FW_TOKEN | cmdb login --host https://fw.example:8443 --token-stdin',
  'cmdb get system/interface port1 -o yaml',
  "cmdb update firewall/address lan-net --set comment='office LAN, 2nd floor' --vdom root",
  'CMDB_HOST=https://fw.example CMDB_TOKEN=$TOKEN cmdb list firewall/address -o json   # in CI',
];

const MORE =
  "'cmdb <command> --help' for a command's options and examples; 'man cmdb'; README.md and the guides in " +
  'docs/ of the package (docs/reference.md: every command) for the output formats, configuration as code, ' +
  'many devices and the emulator';

const HELP_OPTION = { flags: '-h, --help', description: 'show this help' };
const VERSION_OPTION = { flags: '-V, --version', description: 'print the version' };

/** `device list` for a subcommand, `list` otherwise. */
export function commandName(def: CommandDef): string {
  return `${def.parent ? `${def.parent} ` : ''}${def.signature.split(' ')[0]}`;
}

/** The arguments as the command takes them: `update <table> [key] [body]`. */
export function usageOf(def: CommandDef): string {
  return `${def.parent ? `${def.parent} ` : ''}${def.usage ?? def.signature}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const WIDTH = 80;

/** Words wrapped into lines of at most `width` columns. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Two columns: the term, then its text wrapped beside it (below it when the term is long). */
function columns(
  rows: readonly (readonly [string, string])[],
  indent = 2,
  width = Math.max(...rows.map(([term]) => term.length)),
): string[] {
  const termWidth = Math.min(width, 30);
  const textWidth = Math.max(30, WIDTH - indent - termWidth - 2);
  const out: string[] = [];
  for (const [term, text] of rows) {
    const lines = wrapWords(text, textWidth);
    const pad = ' '.repeat(indent + termWidth + 2);
    if (term.length > termWidth) {
      out.push(' '.repeat(indent) + term);
      for (const line of lines) out.push(pad + line);
    } else {
      out.push(' '.repeat(indent) + term.padEnd(termWidth + 2) + (lines[0] ?? ''));
      for (const line of lines.slice(1)) out.push(pad + line);
    }
  }
  return out;
}

function section(title: string, lines: string[]): string {
  return `${title}:\n${lines.join('\n')}\n`;
}

/** `cmdb --help`: the commands by group, global options once, examples, environment, exit codes. */
/** `cmdb --help`. `options`: the global options' records (all of them but in tests). */
export function mainHelp(options: readonly GlobalOption[] = GLOBAL_OPTIONS): string {
  const parts = [
    `Usage: cmdb [global options] <command> [arguments] [options]\n\n${wrapWords(SUMMARY, WIDTH).join('\n')}\n`,
  ];
  const width = Math.max(...COMMANDS.map((d) => usageOf(d).length).filter((n) => n <= 30));
  for (const group of GROUPS) {
    const defs = COMMANDS.filter((d) => d.group === group);
    if (defs.length)
      parts.push(
        section(
          capitalized(group),
          columns(
            defs.map((d) => [usageOf(d), d.description]),
            2,
            width,
          ),
        ),
      );
  }
  parts.push(
    section(
      'Global options (before or after the command; a flag wins over its variable)',
      columns([...options, VERSION_OPTION, HELP_OPTION].map((o) => [o.flags, o.description])),
    ),
  );
  parts.push(
    section(
      'Examples',
      EXAMPLES.map((e) => `  ${e}`),
    ),
  );
  parts.push(section('Environment', columns(environmentHelp(options).map((v) => [v.name, v.description]))));
  parts.push(section('Exit codes', columns(EXIT_CODES.map(([code, meaning]) => [String(code), meaning]))));
  parts.push(
    section(
      'More',
      wrapWords(MORE, WIDTH - 2).map((l) => `  ${l}`),
    ),
  );
  return parts.join('\n');
}

const GLOBAL_OPTIONS_NOTE =
  "Global options (-d, --host, --vdom, -o, --demo, ...) and the environment variables: see 'cmdb --help'.";

/** A command's --help: its arguments as they are, its own options, 2-3 examples; global options by reference. */
export function commandHelp(def: CommandDef): string {
  const parts = [
    `Usage: cmdb ${usageOf(def)}${def.options?.length ? ' [options]' : ''}\n\n` +
      `${wrapWords(`${capitalized(def.description)}.`, WIDTH).join('\n')}\n`,
  ];
  if (def.notes?.length) parts.push(def.notes.flatMap((n) => wrapWords(n, WIDTH)).join('\n') + '\n');
  parts.push(section('Options', columns([...(def.options ?? []), HELP_OPTION].map((o) => [o.flags, o.description]))));
  if (def.examples?.length)
    parts.push(
      section(
        'Examples',
        def.examples.map((e) => `  ${e}`),
      ),
    );
  parts.push(`${wrapWords(GLOBAL_OPTIONS_NOTE, WIDTH).join('\n')}\n`);
  return parts.join('\n');
}

/** `cmdb device --help`: the subcommands of a group. */
export function parentHelp(parent: string): string {
  const defs = COMMANDS.filter((d) => d.parent === parent);
  return [
    `Usage: cmdb ${parent} <command>\n\n${capitalized(PARENTS[parent] ?? parent)}.\n`,
    section('Commands', columns(defs.map((d) => [usageOf(d), d.description]))),
    "Each command's options and examples: 'cmdb " + parent + " <command> --help'.\n",
  ].join('\n');
}

/** The help a command path asks for (`[]`, `['list']`, `['device']`, `['device', 'list']`), or undefined. */
export function helpFor(path: readonly string[]): string | undefined {
  if (path.length === 0) return mainHelp();
  const name = path.join(' ');
  const def = COMMANDS.find((d) => commandName(d) === name);
  if (def) return commandHelp(def);
  if (path.length === 1 && PARENTS[path[0]!] !== undefined) return parentHelp(path[0]!);
  return undefined;
}

/** roff text: backslashes and dashes escaped, a line never starting with a control character. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** `cmdb.1`: the same sections as `cmdb --help`, with every command's options and examples. */
export function manPage(version: string, options: readonly GlobalOption[] = GLOBAL_OPTIONS): string {
  const out: string[] = [
    `.TH CMDB 1 "" "cmdb ${roff(version)}" "User Commands"`,
    '.SH NAME',
    `cmdb \\- ${roff(SUMMARY.charAt(0).toLowerCase() + SUMMARY.slice(1).replace(/\.$/, ''))}`,
    '.SH SYNOPSIS',
    '.B cmdb',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]',
    '.SH DESCRIPTION',
    roff(SUMMARY),
    'Table paths are written \\fIarea[.subarea]/table\\fR as in the catalogue (\\fBcmdb tables\\fR); keys are ' +
      'typed by the catalogue.',
    'Data goes to standard output; progress, notices, warnings and errors to standard error.',
    '.SH COMMANDS',
  ];
  for (const group of GROUPS) {
    const defs = COMMANDS.filter((d) => d.group === group);
    if (!defs.length) continue;
    out.push(`.SS ${roff(capitalized(group))}`);
    for (const def of defs) {
      out.push('.TP', `.B cmdb ${roff(usageOf(def))}`, roff(capitalized(def.description)) + '.');
      for (const note of def.notes ?? []) out.push('.br', roff(note));
      for (const o of def.options ?? []) out.push('.RS', '.TP', `.B ${roff(o.flags)}`, roff(o.description), '.RE');
      if (def.examples?.length) {
        out.push('.RS', '.PP', 'Examples:', '.nf');
        for (const e of def.examples) out.push(`  ${roff(e)}`);
        out.push('.fi', '.RE');
      }
    }
  }
  out.push(
    '.SH GLOBAL OPTIONS',
    'Global options may stand before or after the command. Precedence: flag, then environment variable, then ' +
      'the device profile, then the default.',
  );
  for (const o of [...options, VERSION_OPTION, HELP_OPTION])
    out.push('.TP', `.B ${roff(o.flags)}`, roff(o.description));
  out.push('.SH EXAMPLES', '.nf');
  for (const e of EXAMPLES) out.push(roff(e));
  out.push('.fi', '.SH ENVIRONMENT');
  for (const v of environmentHelp(options)) out.push('.TP', `.B ${roff(v.name)}`, roff(v.description));
  out.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_CODES) out.push('.TP', `.B ${code}`, roff(meaning));
  out.push(
    '.SH FILES',
    '.TP',
    '.I $XDG_CONFIG_HOME/cmdb/config.yaml',
    'Saved device profiles (no secrets); the folder is CMDB_CONFIG_DIR when set.',
    '.TP',
    '.I $XDG_CONFIG_HOME/cmdb/credentials.yaml',
    'Secrets kept in plain text (mode 0600) only with \\fBcmdb login \\-\\-insecure\\-storage\\fR; otherwise ' +
      'they are in the system keychain.',
    '.TP',
    '.I $XDG_STATE_HOME/cmdb/demo\\-state.json',
    'The state of the \\fB\\-\\-demo\\fR device (\\fBcmdb demo reset\\fR removes it).',
    '.SH SEE ALSO',
    roff(MORE.replace(/'man cmdb'; /, '')),
  );
  return out.join('\n') + '\n';
}

/** Markdown text: `|` and `<`/`>` outside code would be read as table cells and HTML. */
function md(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A markdown code span in a table cell (a pipe escaped, as a cell would end there). */
function code(text: string): string {
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * `docs/reference.md`: every command (usage, description, notes, options, examples), the global
 * options, the environment and the exit codes, from the same data as `--help` and the man page.
 * `npm run build` writes it (scripts/man.js); a test fails when the checked-in copy differs.
 */
export function referencePage(options: readonly GlobalOption[] = GLOBAL_OPTIONS): string {
  const out: string[] = [
    '# Command reference',
    '',
    '<!-- Generated by `npm run build` (scripts/man.js) from src/cli/help.ts, src/commands/registry.ts, ' +
      'src/settings.ts and src/errors.ts: the same source as `cmdb --help` and `man cmdb`. Do not edit; change ' +
      'the source and run `npm run build`. -->',
    '',
    md(SUMMARY),
    '',
    'Usage: `cmdb [global options] <command> [arguments] [options]`. Global options may stand before or after ' +
      'the command. Table paths are written `area[.subarea]/table` as in the catalogue (`cmdb tables`); keys are ' +
      'typed by the catalogue. Data goes to standard output; progress, notices, warnings and errors to standard ' +
      'error. The examples below run against the built-in demo device (`cmdb --demo ...`), except those that log ' +
      'in to a real one.',
    '',
    '## Contents',
    '',
  ];
  const groups = GROUPS.filter((g) => COMMANDS.some((d) => d.group === g));
  for (const group of groups) {
    out.push(
      `- [${capitalized(group)}](#${anchorOf(capitalized(group))}): ${COMMANDS.filter((d) => d.group === group)
        .map((d) => `[${commandName(d)}](#${anchorOf(`cmdb ${commandName(d)}`)})`)
        .join(', ')}`,
    );
  }
  out.push('- [Global options](#global-options)', '- [Environment](#environment)', '- [Exit codes](#exit-codes)', '');
  for (const group of groups) {
    out.push(`## ${capitalized(group)}`, '');
    for (const def of COMMANDS.filter((d) => d.group === group)) {
      out.push(
        `### cmdb ${commandName(def)}`,
        '',
        `\`cmdb ${usageOf(def)}${def.options?.length ? ' [options]' : ''}\``,
        '',
        `${md(capitalized(def.description))}.`,
        '',
      );
      for (const note of def.notes ?? []) out.push(md(note), '');
      if (def.options?.length) {
        out.push('| option | meaning |', '|---|---|');
        for (const o of def.options) out.push(`| ${code(o.flags)} | ${md(o.description)} |`);
        out.push('');
      }
      if (def.examples?.length) out.push('```', ...def.examples, '```', '');
    }
  }
  out.push(
    '## Global options',
    '',
    'Before or after the command. Precedence: flag, then environment variable, then the device profile, then ' +
      'the default.',
    '',
    '| option | variable | meaning |',
    '|---|---|---|',
  );
  for (const o of [...options, VERSION_OPTION, HELP_OPTION])
    out.push(`| ${code(o.flags)} | ${'env' in o && o.env ? code(String(o.env)) : ''} | ${md(o.description)} |`);
  out.push(
    '',
    'Examples of the whole tool:',
    '',
    '```',
    ...EXAMPLES,
    '```',
    '',
    '## Environment',
    '',
    '| variable | meaning |',
    '|---|---|',
  );
  for (const v of environmentHelp(options)) out.push(`| ${code(v.name)} | ${md(v.description)} |`);
  out.push(
    '',
    '## Exit codes',
    '',
    'A run that does several things (several keys, VDOMs or devices) exits with the most severe code of its ' +
      `parts, in this order, most severe first: ${SEVERITY.join(', ')}.`,
    '',
    '| code | meaning |',
    '|---|---|',
  );
  for (const [exit, meaning] of EXIT_CODES) out.push(`| ${exit} | ${md(meaning)} |`);
  return out.join('\n') + '\n';
}
