// What json and yaml print of each shape, and the objects of results and errors within them.
import type { ErrorReport } from './messages.js';
import type { Row, Shaped, WriteResult } from './types.js';

/** An error as a result row holds it (a VDOM that refused, a failed bulk item or apply step). */
export function errorObject(report: ErrorReport): Row {
  return {
    exit: report.exit,
    status: report.status,
    code: report.code,
    message: report.message,
    hint: report.hint,
    cli_error: report.cliError,
  };
}

/** A write's result with all four fields, in a stable order, absent ones as null. */
export function writeResultObject(result: WriteResult): Required<Omit<WriteResult, 'outcome'>> & { outcome?: string } {
  return {
    status: result.status,
    mkey: result.mkey ?? null,
    revision: result.revision ?? null,
    vdom: result.vdom ?? null,
    ...(result.outcome ? { outcome: result.outcome } : {}),
  };
}

/** The value json and yaml print for each shape. */
export function plainData(data: Shaped): unknown {
  switch (data.kind) {
    case 'list':
      return data.rows;
    case 'object':
      return data.object;
    case 'byVdom':
      return data.vdoms;
    case 'write':
      return writeResultObject(data.result);
    case 'raw':
      return data.body;
    case 'text':
      return data.text;
  }
}

/**
 * Rows of several VDOMs flattened, each with `vdom` as its first field. The VDOM that was
 * queried wins over a field of the same name, so every row says where it came from.
 */
export function rowsWithVdom(vdoms: Record<string, Row[] | Row>): Row[] {
  const rows: Row[] = [];
  for (const [vdom, value] of Object.entries(vdoms)) {
    for (const row of Array.isArray(value) ? value : [value]) {
      rows.push(Object.fromEntries([['vdom', vdom], ...Object.entries(row).filter(([name]) => name !== 'vdom')]));
    }
  }
  return rows;
}

/**
 * A value without the device's bookkeeping fields (`q_origin_key`, `q_ref`...), at every depth, but those in `keep`.
 */
export function withoutBookkeeping<T>(value: T, keep: readonly string[] = []): T {
  if (Array.isArray(value)) return value.map((v) => withoutBookkeeping(v, keep)) as T;
  if (!value || typeof value !== 'object') return value;
  const dropped = (name: string) => name.startsWith('q_') && !keep.includes(name);
  let meta = false;
  for (const name in value) if (dropped(name)) meta = true;
  const entries = Object.entries(value);
  // Most rows have no nested lists: only those with something to drop or descend into are copied.
  if (!meta && !entries.some(([, v]) => v && typeof v === 'object')) return value;
  return Object.fromEntries(
    entries.filter(([name]) => !dropped(name)).map(([name, v]) => [name, withoutBookkeeping(v, keep)]),
  ) as T;
}

/** A read's data without bookkeeping fields. */
export function readWithoutBookkeeping<T extends Shaped>(data: T, keep: readonly string[] = []): T {
  switch (data.kind) {
    case 'list':
      return { ...data, rows: withoutBookkeeping(data.rows, keep) };
    case 'object':
      return { ...data, object: withoutBookkeeping(data.object, keep) };
    case 'byVdom':
      return { ...data, vdoms: withoutBookkeeping(data.vdoms, keep) };
    default:
      return data;
  }
}
