// What commands hand the printer (data and what happened), and the types the formats share.
import type { Terminal } from './color.js';
import type { ErrorReport } from './messages.js';
import type { PlanFacts, PlanView } from './plan.js';
import type { PlannedRequest } from './requests.js';

import type { FieldSchema } from '../catalogue/index.js';
import type { OutputFormat } from '../grammar/types.js';
import type { TableDef } from '../catalogue/index.js';

// The words of -o are the command line's (src/grammar): the output layer gives each its formatter.
export { OUTPUT_FORMATS, type OutputFormat } from '../grammar/types.js';
export type { Terminal } from './color.js';

/** One object as the device returns it (`seq-num`, `q_origin_key`, nested arrays of objects...). */
export type Row = Record<string, unknown>;

/**
 * A table's fields as the catalogue (or the device's own schema) gives them, in its order: what decides
 * the columns of a table (defaults, a chosen set by path) and which lists print as names.
 */
export interface TableFields {
  path: string;
  fields: Record<string, FieldSchema>;
}

export interface WriteResult {
  status: string;
  mkey?: string | number | null;
  revision?: string | null;
  vdom?: string | null;
  /** How a write whose answer was lost turned out, read back: `applied`; or `unchanged` (already there). */
  outcome?: string;
}

/** What a login, logout or device command did: one line for people, the object for scripts. */
export interface Done {
  kind: 'done';
  message: string;
  object: Row;
}

/** One VDOM (or item) that refused, as the user sees its error. */
export interface Refusal {
  vdom: string | null;
  report: ErrorReport;
  /**
   * A write that never reached the device (`not_applied`), or whose answer was lost and reading back did not show it
   * applied (`unknown`).
   */
  outcome?: string;
}

/**
 * What a write to one or several VDOMs did: a line each for people, the result (keyed by VDOM when several) for
 * scripts.
 */
export interface Written {
  kind: 'written';
  /** What was done, as the line of a table starts: `created`, `moved after 2:`. */
  verb: string;
  tablePath: string;
  /** The key written, for the result of a VDOM that refused. */
  mkey?: string | number;
  /** One per VDOM that answered. */
  results: WriteResult[];
  /** The device answered for several VDOMs. */
  severalVdoms: boolean;
  refusals: Refusal[];
  /** The device's answer as it came (--raw). */
  body: unknown;
}

/** What a read found: a list, an object, or either keyed by VDOM. */
export type ReadData = Extract<Shaped, { kind: 'list' | 'object' | 'byVdom' }>;

/** What a read found, with what the printer needs to say so when it found nothing. */
export interface Read {
  kind: 'read';
  /** What the device had, or null when no VDOM answered (every one refused). */
  data: ReadData | null;
  /** The device's answer as it came (--raw). */
  body: unknown;
  tablePath: string;
  keyField?: string | null;
  /** The table's columns as the catalogue knows them: the header of an empty csv. */
  columns?: string[];
  /** The table's fields, for the columns a table shows and the lists printed as names. */
  schema?: TableFields;
  /** The VDOMs asked, named when nothing was found. */
  vdoms?: string[];
  /** The device was asked to filter: nothing found is "nothing matched". */
  filtered?: boolean;
  /** Objects asked for by key: each one not found is an error of its own, so none is no empty table. */
  byKey?: boolean;
  /** What a table shows instead (a schema: one row per field). */
  table?: { rows: Row[]; fields: string[] };
  /** What an empty answer is called on stderr, instead of "no objects in <table>" (`no transactions`). */
  none?: string;
  refusals: Refusal[];
}

/** Data that a table shows in words of its own (the default device marked `*`, defaults spelled out). */
export interface ForPeople {
  kind: 'forPeople';
  /** What json, yaml, ndjson and csv print. */
  data: Shaped;
  /** What a table prints instead, with these columns. */
  table: Shaped;
  tableView?: Pick<RenderOptions, 'fields' | 'whole' | 'rowPerDevice'>;
  /** A table of nothing is this line on stderr instead. */
  none?: string;
  /** The device's answer as it came, which --raw prints instead, when the data is read from one. */
  body?: unknown;
}

/** A service that started (the emulator): one JSON line for scripts with -o json, else its settings for people. */
export interface Started {
  kind: 'started';
  /** The line scripts read. */
  object: Row;
  /** For people: what started, its settings by label, commands to use it, and a line on stderr. */
  title: string;
  settings: [string, string][];
  use: { how: string; commands: string[] };
  status: string;
}

/**
 * The answer to a request on any path (`cmdb api`): its results in the run's format, the whole answer with --raw, an
 * answer that is not JSON as it came.
 */
export interface Answer {
  kind: 'answer';
  /** The results, shaped; null for an answer that is not JSON. */
  data: Shaped | null;
  /** The JSON answer as it came (--raw). */
  body: unknown;
  /** An answer that is not JSON (a configuration backup): written to stdout byte for byte, whatever the format. */
  bytes?: Uint8Array;
}

/** The writes of a dry run, as they would be sent. */
export interface Requests {
  kind: 'requests';
  requests: PlannedRequest[];
}

/** A step of a plan as printed (secrets hidden); with `table` null, the transaction of a VDOM; `vdom` null: global. */
export interface PlanStep {
  action: string;
  vdom: string | null;
  table: string | null;
  key: unknown;
  outcome?: string;
}

/** What `diff` found, or what `apply` will do: `+ ~ -` lines and a summary for people, the plan object for scripts. */
export interface Planned {
  kind: 'plan';
  plan: PlanView;
  /** What its lines say beyond the plan: the tables' fields, the names of numbered objects. */
  facts?: PlanFacts;
  /** Shown before the plan is applied: for people only (scripts read the report). */
  preview?: boolean;
  /** A dry run: the requests the plan makes. */
  requests?: PlannedRequest[];
  /**
   * The plan's reference problems (CLI.md "The plan is checked before anything is sent"): a warning
   * each for people, `problems` beside the plan for scripts.
   */
  problems?: PlanProblem[];
}

/** A reference problem of a plan: an object that names what nobody has, or what the plan deletes. */
export interface PlanProblem {
  kind: string;
  vdom: string | null;
  table: string;
  key: unknown;
  field: string;
  value: unknown;
  message: string;
}

/**
 * What `apply` (or `--atomic`) did: a line per change made, the failure and a summary for people; CLI.md's report for
 * scripts.
 */
export interface Applied {
  kind: 'applied';
  applied: PlanStep[];
  failed: (PlanStep & { error: ErrorReport }) | null;
  notApplied: PlanStep[];
  /** Writes whose answer was lost and that reading back did not show applied: the device may still apply them. */
  unknown: PlanStep[];
  /** --atomic: the transactions were aborted, so nothing was changed. */
  aborted: boolean;
  interrupted: boolean;
  /** The plan was empty: people were told with the plan, scripts get an empty report. */
  nothingToDo?: boolean;
  /** Writes that failed beside `failed` (several ran at once); each is also in `notApplied`. */
  alsoFailed?: (PlanStep & { error: ErrorReport })[];
}

/** One table of a config document, as a preview shows it. */
export interface DocumentPart {
  /** null for a table the device holds once (`global:`). */
  vdom: string | null;
  keyField: string | null;
  schema: TableFields;
  content: Row[] | Row;
}

/**
 * A config document (`export`): the document in json and yaml; in table a preview for people, a table
 * per VDOM and table with the columns a read of it shows.
 */
export interface Exported {
  kind: 'document';
  document: Row;
  parts: DocumentPart[];
}

/** What a command returns to be printed: data, or what happened. The printer decides how it looks. */
export type Printable =
  | Shaped
  | Done
  | Written
  | Read
  | ForPeople
  | Started
  | Requests
  | Planned
  | Applied
  | Answer
  | Exported;

export type Shaped =
  | { kind: 'list'; rows: Row[] }
  | { kind: 'object'; object: Row }
  | { kind: 'byVdom'; vdoms: Record<string, Row[] | Row> }
  | { kind: 'write'; result: WriteResult; message: string }
  | { kind: 'raw'; body: unknown }
  /** Text already laid out for people (a plan), printed as is. */
  | { kind: 'text'; text: string };

export interface OutStream {
  /** Text; or bytes, written as they are (an answer that is not JSON). */
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
  columns?: number;
}

/** The process's streams, or stand-ins in tests. */
export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
}

export interface RenderOptions {
  format: OutputFormat;
  terminal: Terminal;
  /** The table's key field: first column in table and csv. */
  keyField?: string | null;
  /** Columns the user asked for with --columns or --fields, in this order (table and csv show exactly these). */
  fields?: string[];
  /** --wide: a table shows every column, whole (as piped), and leaves none out to fit the terminal. */
  wide?: boolean;
  /** The user named the columns (--columns, --fields): a table cuts cells to fit, but leaves none out. */
  keepColumns?: boolean;
  /** The table's fields (a read): its columns by the catalogue's rules, member lists as names in table and csv. */
  schema?: TableFields;
  /** Where a table on a terminal says, in one line on stderr, which columns it left out to fit. */
  note?: (message: string) => void;
  /** false: table and csv rows without the header line (--no-headers). */
  headers?: boolean;
  /** Columns a table on a terminal never cuts (a device's address): other columns give way first. */
  whole?: string[];
  /** Meta fields a table shows although it hides `q_*` (`q_ref` with --with-meta). */
  showMeta?: readonly string[];
  /**
   * With several devices in table format: a row of one table keyed by device (`cmdb status`), not a section of its own.
   */
  rowPerDevice?: boolean;
  /**
   * A read without --with-meta: the device's bookkeeping fields (`q_*`) are left out in every format (not with --raw).
   */
  hideMeta?: boolean;
  /** What the `cli` format writes the device's syntax from: the catalogue's tables. */
  conf?: ConfView;
}

/** The tables behind data in the `cli` format (src/syntax spells each field by its catalogue entry). */
export interface ConfView {
  /** The table a read is of (list, get). */
  table?: TableDef;
  /** The tables of a config document (export), each under the path the document names it by. */
  tables?: readonly TableDef[];
  /** Only fields that differ from their default, as the device's `show` prints (--exclude-default-values). */
  changed?: boolean;
}

/** What every formatter module exports: text for stdout, "" or ending with "\n". */
export type Formatter = (data: Exclude<Shaped, { kind: 'raw' | 'text' }>, opts: RenderOptions) => string;

/**
 * A list whose rows arrive page by page (`list --all`): add() returns the text that can be written
 * now, end() the rest in chunks. The concatenation equals the formatter's text for all the rows.
 */
export interface RowFormatter {
  add(rows: readonly Row[]): string;
  end(): Iterable<string>;
}

export interface RowSink {
  /** One page of rows: written at once when the format allows (ndjson, json, csv with --fields). */
  write(rows: Row[]): Promise<void>;
  /** Writes the rest (a table's or csv's kept rows, the closing of a json array). Further write() calls throw. */
  end(): Promise<void>;
  /**
   * The run stops midway (interrupted, or a page failed): the text that closes what was begun so
   * that it still parses (a json array's `]`; ndjson and csv lines are whole, table and yaml not
   * begun); nothing is written after it.
   */
  abandon?(): string;
}

export type View = Omit<RenderOptions, 'format' | 'terminal'> & {
  /** A format of the command's own, when the run names none (the printer otherwise uses the run's). */
  format?: OutputFormat;
  /** The columns a table shows when --fields does not say (the other formats show every field). */
  tableFields?: string[];
};

/** How a shape is shown: the view without the table's default columns (already applied). */
export type ShapeOptions = Omit<View, 'tableFields'>;

/**
 * Where print() sends what it lowered, and where messages go: this printer's own streams, or (one
 * device of a run on several, src/cli/fleet.ts) the device's share of the run's document, with its
 * messages naming the device.
 */
export interface PrintHooks {
  emit(data: Shaped, options: ShapeOptions): Promise<void>;
  /** A sink for rows that arrive page by page. */
  rows(options: ShapeOptions): Promise<RowSink>;
  notice(message: string): void;
  warn(message: string): void;
  /** An error of one part of the run (a VDOM, a bulk item): the run goes on. */
  error(report: ErrorReport): void;
  /** A bulk run's summary. */
  summarize(report: ErrorReport & { counts: { failed: number; total: number } }): void;
}
