// The output layer: every byte cmdb writes for a person or a program is shaped here. Formatters
// are loaded on first use (yaml and cli-table3 cost startup time a command that prints
// nothing must not pay); this module imports nothing heavier than the colour helpers.
import type { Formatter, OutputFormat, RenderOptions, Row, RowFormatter, RowSink, Shaped } from './types.js';

export type {
  Answer,
  Applied,
  DocumentPart,
  Done,
  Exported,
  ForPeople,
  Formatter,
  IO,
  OutputFormat,
  OutStream,
  Planned,
  PlanProblem,
  PlanStep,
  Printable,
  Read,
  ReadData,
  Refusal,
  RenderOptions,
  Requests,
  Row,
  RowFormatter,
  RowSink,
  Shaped,
  Started,
  Terminal,
  WriteResult,
  Written,
} from './types.js';
export type { BulkItem, BulkSink, PageSink } from './outcomes.js';
export { decideColor, defaultFormat, loadPalette, paint, terminalFor } from './color.js';
export { formatError, formatNotice, formatWarning } from './messages.js';
export { objectSlot, stepInWords, type PlanFacts, type PlanView } from './plan.js';
export type { ErrorReport } from './messages.js';

import { OUTPUT_FORMATS } from './types.js';
export { OUTPUT_FORMATS };

export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** The formatter registry: one loader per format. */
const FORMATTERS: Record<OutputFormat, () => Promise<Formatter>> = {
  table: async () => (await import('./table.js')).formatTable,
  json: async () => (await import('./json.js')).formatJson,
  yaml: async () => (await import('./yaml.js')).formatYaml,
  ndjson: async () => (await import('./json.js')).formatNdjson,
  csv: async () => (await import('./csv.js')).formatCsv,
  cli: async () => (await import('./cli.js')).formatCli,
};

/**
 * The full text for stdout: "" (an empty list in table, ndjson or csv) or text ending in "\n".
 * `raw` ignores the format: the body as JSON, pretty on a terminal, compact otherwise.
 */
export async function render(data: Shaped, opts: RenderOptions): Promise<string> {
  if (data.kind === 'raw') return (await import('./json.js')).formatRaw(data, opts.terminal.isTTY);
  if (data.kind === 'text') return data.text;
  const load = FORMATTERS[opts.format];
  if (!load) throw new TypeError(`unknown output format: ${String(opts.format)}`);
  return (await load())(data, opts);
}

/**
 * Page-by-page formatters. table and csv keep each row only as its cells' text, in bounded memory
 * (spilled to a temporary file past a few MB); yaml keeps the rows and renders them at the end; cli
 * writes each object as it comes.
 */
const ROW_FORMATTERS: Record<OutputFormat, (opts: RenderOptions) => Promise<RowFormatter>> = {
  table: async (opts) => new (await import('./table.js')).ListTable(opts),
  json: async (opts) => (await import('./json.js')).jsonRows(opts),
  ndjson: async () => (await import('./json.js')).ndjsonRows(),
  csv: async (opts) => (await import('./csv.js')).csvRows(opts),
  cli: async (opts) => (await import('./cli.js')).cliRows(opts),
  yaml: async (opts) => {
    const { formatYaml } = await import('./yaml.js');
    const kept: Row[] = [];
    return {
      add(rows) {
        for (const row of rows) kept.push(row);
        return '';
      },
      end: () => [formatYaml({ kind: 'list', rows: kept }, opts)],
    };
  },
};

interface Writable {
  write(s: string): unknown;
}

/** Write, and when the stream says its buffer is full, wait until it drains (or ends). */
async function writeOut(out: Writable, text: string): Promise<void> {
  if (text === '') return;
  const accepted = out.write(text);
  const emitter = out as Partial<NodeJS.EventEmitter>;
  if (accepted !== false || typeof emitter.once !== 'function' || typeof emitter.off !== 'function') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) emitter.off!(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) emitter.once!(event, done);
  });
}

/** A sink for `list --all`: rows arrive page by page; the text equals render() of all the rows. */
export function createRowSink(out: Writable, opts: RenderOptions): RowSink {
  let formatter: Promise<RowFormatter> | undefined;
  let loaded: RowFormatter | undefined;
  const load = () => (formatter ??= ROW_FORMATTERS[opts.format](opts).then((f) => (loaded = f)));
  let ended = false;
  let begun = false;
  return {
    async write(rows) {
      if (ended) throw new Error('RowSink.write() after end()');
      const text = (await load()).add(rows);
      begun ||= text !== '';
      await writeOut(out, text);
    },
    async end() {
      if (ended) return;
      ended = true;
      for (const text of (await load()).end()) await writeOut(out, text);
    },
    abandon() {
      if (ended || !begun || !loaded) return '';
      ended = true;
      // Only json's end is nothing but a closing; the others' would print what they keep (a table). A cut
      // cli block stays open: closed, it would read as a whole table to whoever applies it.
      return opts.format === 'json' ? [...loaded.end()].join('') : '';
    },
  };
}
