export type OutputFormat = 'table' | 'json' | 'yaml' | 'ndjson' | 'csv';

/** One object as the device returns it (`seq-num`, `q_origin_key`, nested arrays of objects...). */
export type Row = Record<string, unknown>;

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

/** What a command returns to be printed: data, or what happened. The printer decides how it looks. */
export type Printable = Shaped | Done;

export type Shaped =
  | { kind: 'list'; rows: Row[] }
  | { kind: 'object'; object: Row }
  | { kind: 'byVdom'; vdoms: Record<string, Row[] | Row> }
  | { kind: 'write'; result: WriteResult; message: string }
  | { kind: 'raw'; body: unknown }
  /** Text already laid out for people (a plan), printed as is. */
  | { kind: 'text'; text: string };

export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

/** The process's streams, or stand-ins in tests. */
export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
}

export interface Terminal {
  isTTY: boolean;
  /** Width to fit tables into; only honoured when isTTY (piped output is never cut). */
  columns: number;
  color: boolean;
}

export interface RenderOptions {
  format: OutputFormat;
  terminal: Terminal;
  /** The table's key field: first column in table and csv. */
  keyField?: string | null;
  /** Columns the user asked for with --fields, in this order (table and csv show exactly these). */
  fields?: string[];
  /** false: table and csv rows without the header line (--no-headers). */
  headers?: boolean;
  /** Columns a table on a terminal never cuts (a device's address): other columns give way first. */
  whole?: string[];
  /** Meta fields a table shows although it hides `q_*` (`q_ref` with --with-meta). */
  showMeta?: readonly string[];
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
