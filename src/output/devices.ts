// Output keyed by device (CLI.md, "Many devices"): what several devices printed, put together.
// json/yaml: one object keyed by device name; ndjson: each line with `device` first, as it comes;
// csv: one header, the union of the columns, `device` first; table: one `== device: x ==` section each;
// cli: each device's text after a `#device: x` comment.
import { writeResultObject, plainData, rowsWithVdom } from './data.js';
import { chooseColumns } from './columns.js';
import { escapeJsonControls } from './text.js';
import type { OutputFormat, RenderOptions, Row, Shaped, Terminal } from './types.js';

/** What one device printed: each shape with the options it was printed with. */
export interface DevicePrint {
  data: Shaped;
  /** As printed; a `format` here is the command's own (export prints yaml unless told otherwise). */
  options: Omit<RenderOptions, 'format' | 'terminal'> & { format?: OutputFormat };
}

/** One device's share of the output, in selection order. */
export interface DevicePart {
  device: string;
  prints: DevicePrint[];
}

/** `{"device": name, ...row}`: the device first, winning over a field of the same name. */
export function withDevice(device: string, row: unknown): Row {
  if (row && typeof row === 'object' && !Array.isArray(row)) {
    return Object.fromEntries([
      ['device', device],
      ...Object.entries(row as Row).filter(([name]) => name !== 'device'),
    ]);
  }
  return { device, value: row };
}

/** One ndjson line (a whole JSON text) with the device put in front. */
export function ndjsonLineWithDevice(device: string, line: string): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = line;
  }
  return escapeJsonControls(JSON.stringify(withDevice(device, value)));
}

/** The heading of a device's section in table output. */
export function deviceHeading(device: string): string {
  return `== device: ${device} ==\n`;
}

/** The value json and yaml show for one device: what it printed (a list when it printed several things). */
function deviceValue(part: DevicePart): unknown {
  const values = part.prints.map((p) => plainData(p.data));
  return values.length === 1 ? values[0] : values.length === 0 ? null : values;
}

function rowsOf(data: Shaped): Row[] {
  switch (data.kind) {
    case 'list':
      return data.rows;
    case 'object':
      return [data.object];
    case 'byVdom':
      return rowsWithVdom(data.vdoms);
    case 'write':
      return [writeResultObject(data.result)];
    case 'raw':
      return Array.isArray(data.body) ? (data.body as Row[]) : [data.body as Row];
    case 'text':
      return [];
  }
}

/** Every row the devices printed, each with its device first (a table of one row per device). */
export function rowsByDevice(parts: DevicePart[]): Row[] {
  return parts.flatMap((part) => part.prints.flatMap((p) => rowsOf(p.data).map((row) => withDevice(part.device, row))));
}

/** json, yaml, csv or cli of several devices, once every device is done. */
export async function renderByDevice(parts: DevicePart[], format: OutputFormat, terminal: Terminal): Promise<string> {
  if (format === 'cli') {
    const { render } = await import('./index.js');
    let text = '';
    for (const part of parts) {
      if (!part.prints.length) continue;
      // A comment line: a reader of the syntax skips it.
      text += `#device: ${part.device}\n`;
      for (const p of part.prints) text += await render(p.data, { ...p.options, format, terminal });
    }
    return text;
  }
  if (format === 'csv' && !parts.some((p) => p.prints.some((x) => x.data.kind === 'raw'))) {
    const rows = parts.flatMap((part) =>
      part.prints.flatMap((p) => rowsOf(p.data).map((row) => withDevice(part.device, row))),
    );
    const first = parts.flatMap((p) => p.prints)[0]?.options ?? {};
    if (rows.length === 0 && !first.fields?.length) return '';
    // As with one device: rows of several VDOMs say their VDOM second, after the device.
    const vdom = parts.some((p) => p.prints.some((x) => x.data.kind === 'byVdom')) ? ['vdom'] : [];
    const rest = chooseColumns(rows, {
      keyField: first.keyField,
      fields: first.fields,
      hideMeta: false,
      exclude: ['device', ...vdom],
    });
    return (await import('./csv.js')).csv(
      ['device', ...vdom, ...rest],
      rows,
      terminal.isTTY,
      first.headers !== false,
      first.schema,
    );
  }
  const value = Object.fromEntries(parts.map((part) => [part.device, deviceValue(part)]));
  if (format === 'yaml' && !parts.some((p) => p.prints.some((x) => x.data.kind === 'raw')))
    return (await import('./yaml.js')).yamlText(value);
  return (await import('./json.js')).jsonText(value, terminal.isTTY);
}
