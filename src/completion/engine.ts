// Tab's engine: from the words of a line (read as a run reads it) to the candidates for the word
// under the cursor: commands, options, values from the catalogue, and from the device or the profiles.
import { areaOf, describeOperations, type TableDef, type TableSummary } from '../catalogue/index.js';
import type { Catalogue } from '../catalogue/provider.js';
import { referenceSites } from '../catalogue/references.js';
import type { GlobalOptions } from '../settings.js';
import { FILTER_TERM } from '../request/filter.js';
import { COMMON_FORMATS, OUTPUT_FORMATS, SHELLS, type TableRule, type ValueKind } from '../grammar/types.js';
import type { ArgumentModel, CommandModel, OptionModel } from './model.js';
import { findOption, readArgv, type Reading } from '../grammar/argv.js';

export interface Candidate {
  value: string;
  description?: string;
  /** The value is a step (`firewall.`, `action=`): the shell must not add a space after it. */
  noSpace?: boolean;
}

export interface Completion {
  candidates: Candidate[];
  /** Let the shell complete file names instead. */
  files?: boolean;
}

/** The global options typed on the line, which decide the device keys are read from. */
export type LineOptions = Pick<GlobalOptions, 'device' | 'host' | 'vdom' | 'demo' | 'insecure' | 'caFile' | 'force'>;

/** Where candidates that are not in the catalogue come from (the device, the profiles). */
export interface Sources {
  /** The catalogue of the device the line names: the shipped one, or its cached schema (another release). */
  catalogue(line: LineOptions): Promise<Catalogue>;
  keys(table: TableDef, line: LineOptions): Promise<string[]>;
  devices(): Promise<string[]>;
  vdoms(line: LineOptions): Promise<string[]>;
}

type Parsed = Reading;

const NONE: Completion = { candidates: [] };

const leaf = (p: Parsed) => p.path[p.path.length - 1]!;

/** What Tab understands of the finished words: the line read as a run reads it (src/grammar/argv.ts). */
export function readLine(program: CommandModel, words: readonly string[]): Reading {
  return readArgv(program, words);
}

/** The global options typed on the line, which decide the device keys are read from. */
function lineOptions(p: Parsed): LineOptions {
  const { device, host, vdom, demo, insecure, caFile, force } = p.globals as GlobalOptions;
  return { device, host, vdom, demo, insecure, caFile, force };
}

/** The candidates that extend what is typed, each once, sorted (tests and shells see one order). */
function matching(prefix: string, candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates
    .filter((c) => c.value.startsWith(prefix) && !seen.has(c.value) && !!seen.add(c.value))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

const candidatesOf = (values: Iterable<string>): Candidate[] => [...values].map((value) => ({ value }));

/** Candidates for `a,b,<cur>`: what is already listed stays, listed items are not offered again. */
function commaList(cur: string, items: Candidate[]): Candidate[] {
  const head = cur.slice(0, cur.lastIndexOf(',') + 1);
  const listed = new Set(head.split(',').filter(Boolean));
  return matching(
    cur,
    items.filter((c) => !listed.has(c.value)).map((c) => ({ ...c, value: head + c.value })),
  );
}

function tableDescription(t: TableSummary): string {
  return `${t.singleton ? 'singleton' : `keyed by ${t.key}`}: ${describeOperations(t)}`;
}

function offersTable(rule: TableRule | undefined, t: TableSummary, force: boolean): boolean {
  if (!rule || force) return true;
  return (t.singleton ? rule.singleton : rule.keyed).some((op) => t.operations.includes(op));
}

/**
 * Table paths one step at a time: `w` offers `wanopt/`, `web-proxy/`, `wireless-controller.`...
 * A single step is taken at once (`wire` offers the two hotspot20 tables), so Tab never stops on
 * a step that leaves no choice.
 */
function tableCandidates(catalogue: Catalogue, cur: string, rule: TableRule | undefined, force: boolean): Candidate[] {
  const lead = cur.startsWith('/') ? '/' : '';
  // A table SPEC.md renamed is offered under the device's name too (`log.fortianalyzer2/filter`).
  const tables = catalogue
    .summaries()
    .filter((t) => offersTable(rule, t, force))
    .flatMap((t) =>
      t.deviceName
        ? [
            { path: t.path, t },
            { path: t.deviceName, t },
          ]
        : [{ path: t.path, t }],
    );
  let prefix = cur.slice(lead.length);
  for (;;) {
    const steps = new Map<string, Candidate>();
    for (const { path, t } of tables.filter((n) => n.path.startsWith(prefix))) {
      const end = path.slice(prefix.length).search(/[./]/);
      const step = end < 0 ? path : path.slice(0, prefix.length + end + 1);
      steps.set(
        step,
        end < 0 ? { value: lead + step, description: tableDescription(t) } : { value: lead + step, noSpace: true },
      );
    }
    const only = steps.size === 1 ? [...steps.values()][0] : undefined;
    if (!only?.noSpace) return matching(cur, [...steps.values()]);
    prefix = only.value.slice(lead.length);
  }
}

function fieldCandidates(t: TableDef): Candidate[] {
  return Object.entries(t.fields).map(([name, f]) => ({
    value: name,
    description: f.enum ? f.enum.join('|') : f.type,
  }));
}

/** The tables whose keys a top-level field names (`srcaddr`: addresses and groups), in the catalogue's order. */
function namedTables(t: TableDef, field: string): string[] {
  const tables = referenceSites(t)
    // The field itself, or the entries of its list (`srcaddr[].name`): not fields deeper inside.
    .filter((site) => site.field === field && site.path.length <= 2)
    .flatMap((site) => site.targets.filter((target) => !target.field.includes('.')).map((target) => target.table));
  return [...new Set(tables)];
}

/**
 * `--set field=value` (and `field+=`, `field-=` of update): field names first (no space: the value
 * follows), then the field's enum values, or for a reference the keys of the tables it names, from the
 * device (cached as keys are); after a comma, the next value of a list.
 */
async function setCandidates(
  cur: string,
  t: TableDef,
  keysOf: (tables: string[]) => Promise<Candidate[]>,
): Promise<Candidate[]> {
  const eq = cur.indexOf('=');
  if (eq < 0)
    return matching(
      cur,
      fieldCandidates(t).map((c) => ({ ...c, value: `${c.value}=`, noSpace: true })),
    );
  const op = cur[eq - 1] === '+' || cur[eq - 1] === '-' ? 1 : 0;
  const field = cur.slice(0, eq - op);
  const named = namedTables(t, field);
  if (!named.length) return matching(cur, candidatesOf((t.fields[field]?.enum ?? []).map((v) => `${field}=${v}`)));
  const head = cur.slice(0, Math.max(eq + 1, cur.lastIndexOf(',') + 1));
  return matching(
    cur,
    (await keysOf(named)).map((c) => ({ ...c, value: head + c.value })),
  );
}

/** `--filter field<op>value[,…]`: field names, then the enum values of the field after its operator. */
function filterCandidates(cur: string, t: TableDef): Candidate[] {
  const head = cur.slice(0, cur.lastIndexOf(',') + 1);
  const term = FILTER_TERM.exec(cur.slice(head.length));
  if (!term)
    return matching(
      cur,
      fieldCandidates(t).map((c) => ({ ...c, value: head + c.value, noSpace: true })),
    );
  const [, field, op] = term;
  return matching(cur, candidatesOf((t.fields[field]?.enum ?? []).map((v) => `${head}${field}${op}${v}`)));
}

/** The argument at a position (the last one again when it is variadic), and the kind of its value. */
function argumentKind(p: Parsed, index: number): { kind: ValueKind; arg?: ArgumentModel } {
  const args = leaf(p).args;
  const at = Math.min(index, args.length - 1);
  const arg = args[at];
  if (!arg || (index > at && !arg.variadic)) return { kind: 'none' };
  const kind = arg.kind ?? 'none';
  // A variadic argument of kind 'key' (`update <table> [args...]`) has a key only in its first word.
  return { kind: kind === 'key' && index > at ? 'none' : kind, arg };
}

/** The table named on the line (the argument of kind 'table'), when the catalogue knows it. */
async function tableOnLine(p: Parsed, sources: Sources): Promise<TableDef | undefined> {
  const index = leaf(p).args.findIndex((a) => a.kind === 'table');
  const path = index >= 0 ? p.operands[index] : undefined;
  return path === undefined ? undefined : (await sources.catalogue(lineOptions(p))).find(path);
}

async function keyCandidates(cur: string, p: Parsed, sources: Sources, exclude: string[]): Promise<Candidate[]> {
  const table = await tableOnLine(p, sources);
  if (!table || table.singleton || !table.key) return [];
  const keys = await sources.keys(table, lineOptions(p));
  return matching(cur, candidatesOf(keys.filter((k) => !exclude.includes(k))));
}

async function valueCandidates(
  kind: ValueKind,
  cur: string,
  p: Parsed,
  sources: Sources,
  choices: string[] = [],
): Promise<Completion> {
  const table = () => tableOnLine(p, sources);
  const summaries = async () => (await sources.catalogue(lineOptions(p))).summaries();
  const command = leaf(p).name;
  switch (kind) {
    case 'file':
      return { candidates: [], files: true };
    case 'choices':
      return { candidates: matching(cur, candidatesOf(choices)) };
    case 'output':
      // Before the command is named, every format; after, those it prints.
      return {
        candidates: matching(
          cur,
          candidatesOf(p.path.length > 1 ? (leaf(p).formats ?? COMMON_FORMATS) : OUTPUT_FORMATS),
        ),
      };
    case 'shell':
      return { candidates: matching(cur, candidatesOf(SHELLS)) };
    case 'group':
      return { candidates: matching(cur, candidatesOf((await summaries()).map((t) => t.group))) };
    case 'area':
      return { candidates: matching(cur, candidatesOf((await summaries()).map((t) => areaOf(t.path)))) };
    case 'device':
      // -d takes a comma list of profiles (several devices in one run).
      return { candidates: commaList(cur, candidatesOf(await sources.devices())) };
    case 'vdom': {
      const all = cur.includes(',') ? [] : [{ value: '*', description: 'every VDOM' }];
      return {
        candidates: [...matching(cur, all), ...commaList(cur, candidatesOf(await sources.vdoms(lineOptions(p))))],
      };
    }
    case 'table':
      return {
        candidates: tableCandidates(await sources.catalogue(lineOptions(p)), cur, leaf(p).tables, !!p.globals.force),
      };
    case 'key':
      // `move t k --before <k>` offers every key but k.
      return { candidates: await keyCandidates(cur, p, sources, command === 'move' ? p.operands.slice(1, 2) : []) };
    case 'keys':
      return { candidates: await keyCandidates(cur, p, sources, p.operands.slice(1)) };
    case 'field': {
      const t = await table();
      return { candidates: t ? matching(cur, fieldCandidates(t)) : [] };
    }
    case 'fields': {
      const t = await table();
      return { candidates: t ? commaList(cur, fieldCandidates(t)) : [] };
    }
    case 'filter': {
      const t = await table();
      return { candidates: t ? filterCandidates(cur, t) : [] };
    }
    case 'set': {
      const t = await table();
      const keysOf = async (paths: string[]) => {
        const catalogue = await sources.catalogue(lineOptions(p));
        const found = await Promise.all(
          paths.map(async (path) => {
            const named = catalogue.find(path);
            if (!named || named.singleton || !named.key) return [];
            return (await sources.keys(named, lineOptions(p))).map((k) => ({ value: k, description: path }));
          }),
        );
        return found.flat();
      };
      return { candidates: t ? await setCandidates(cur, t, keysOf) : [] };
    }
    case 'apipath':
      return { candidates: apiPathCandidates(await sources.catalogue(lineOptions(p)), cur) };
    case 'none':
      return NONE;
  }
}

/** Common monitor endpoints of 6.4, offered beside the CMDB tables by `cmdb api`. */
const MONITOR_PATHS = [
  'monitor/system/status',
  'monitor/system/firmware',
  'monitor/system/config/backup',
  'monitor/system/resource/usage',
  'monitor/system/interface',
  'monitor/system/ha-checksums',
  'monitor/system/ha-peer',
  'monitor/firewall/policy',
  'monitor/router/ipv4',
  'monitor/vpn/ipsec',
  'monitor/license/status',
  'monitor/log/current-disk-usage',
];

/** `cmdb api <path>`: `cmdb/` then the catalogue's tables, or a monitor path; `/api/v2/` kept when typed. */
function apiPathCandidates(catalogue: Catalogue, cur: string): Candidate[] {
  const lead = '/api/v2/'.startsWith(cur) && cur.startsWith('/') ? '' : cur.startsWith('/api/v2/') ? '/api/v2/' : '';
  if (cur.startsWith('/') && !lead) return matching(cur, [{ value: '/api/v2/', noSpace: true }]);
  const rest = cur.slice(lead.length);
  if (rest.startsWith('cmdb/'))
    return tableCandidates(catalogue, rest.slice('cmdb/'.length), undefined, true).map((c) => ({
      ...c,
      value: `${lead}cmdb/${c.value}`,
    }));
  const tops: Candidate[] = [
    { value: 'cmdb/', noSpace: true, description: 'a CMDB table' },
    ...candidatesOf(MONITOR_PATHS),
  ];
  return matching(rest, tops).map((c) => ({ ...c, value: lead + c.value }));
}

function optionKind(o: OptionModel): ValueKind {
  return o.choices ? 'choices' : (o.kind ?? 'none');
}

/** Program options are accepted before and after a command, so every option on the path applies. */
function optionCandidates(cur: string, p: Parsed): Candidate[] {
  return matching(
    cur,
    p.path
      .flatMap((c) => c.options)
      .flatMap((o) => o.flags.map((flag) => ({ value: flag, description: o.description }))),
  );
}

/** `--output=js`: the option's values, each written with the `--output=` in front. */
async function inlineValueCandidates(cur: string, p: Parsed, sources: Sources): Promise<Completion> {
  const eq = cur.indexOf('=');
  const flag = cur.slice(0, eq);
  const o = findOption(p.path[0]!.options, flag) ?? (p.path.length > 1 ? findOption(leaf(p).options, flag) : undefined);
  if (!o || o.value === 'none') return NONE;
  const head = cur.slice(0, eq + 1);
  const values = await valueCandidates(optionKind(o), cur.slice(eq + 1), p, sources, o.choices);
  return { ...values, candidates: values.candidates.map((c) => ({ ...c, value: head + c.value })) };
}

/**
 * The candidates for the word under the cursor. `words` are the finished words after the program
 * name, unquoted; `cur` is the unquoted start of the word under the cursor.
 */
export async function complete(
  program: CommandModel,
  words: string[],
  cur: string,
  sources: Sources,
): Promise<Completion> {
  const p = readLine(program, words);
  if (p.pending) return valueCandidates(optionKind(p.pending), cur, p, sources, p.pending.choices);
  if (!p.endOfOptions && cur.startsWith('--') && cur.includes('=')) return inlineValueCandidates(cur, p, sources);
  if (!p.endOfOptions && cur.startsWith('-')) return { candidates: optionCandidates(cur, p) };
  const command = leaf(p);
  if (command.commands.length && p.operands.length === 0) {
    return {
      candidates: matching(
        cur,
        command.commands.map((c) => ({ value: c.name, description: c.description })),
      ),
    };
  }
  const { kind, arg } = argumentKind(p, p.operands.length);
  return valueCandidates(kind, cur, p, sources, arg?.choices);
}
