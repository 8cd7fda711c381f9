// The YAML that cmdb writes itself (config.yaml): mappings of mappings of one-line scalars, in block
// style. Read here without the yaml package (73 files, ~28 ms on every command that reads a profile).
// Anything else (flow collections, anchors, tags, block scalars, comments after a value, tabs, escapes
// in quoted text, duplicate keys, a scalar the YAML core schema reads in a way not handled here) is
// left to the yaml package: plainYaml() returns null, and the caller parses the file with it.

/**
 * A parsed value with the line it starts on: a scalar, or a mapping as its entries in order (an
 * array). Read by the yaml package, anything else (a sequence...) is an object that is neither.
 */
export interface PlainNode {
  line: number;
  value: unknown;
}

export function isMapping(node: PlainNode): node is PlainNode & { value: PlainEntry[] } {
  return Array.isArray(node.value);
}

export interface PlainEntry {
  key: string;
  keyLine: number;
  value: PlainNode;
}

// The YAML 1.2 core schema's forms (as the yaml package resolves plain scalars).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_NUMBER = new RegExp(
  String.raw`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?` +
    String.raw`|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$`,
);
/** The core forms read here; any other core form is left to the yaml package. */
const SIMPLE_NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;
/** A plain scalar that starts with no indicator and holds no `: ` or ` #`. */
const PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?!\s|$)|(?<!\s)#)*$/;

class NotPlain extends Error {}

/** How deeply collections may nest in any document cmdb reads (a CMDB object nests a few levels). */
export const MAX_DEPTH = 64;

/** A mapping nested deeper than MAX_DEPTH, at `line`. */
export class TooDeep extends Error {
  constructor(readonly line: number) {
    super(`nested more than ${MAX_DEPTH} levels deep`);
  }
}

function scalar(text: string, key: boolean): string | number | boolean | null {
  if (text.startsWith('"')) {
    // Double-quoted without escapes is a JSON string.
    if (!/^"[^"\\]*"$/.test(text)) throw new NotPlain();
    return text.slice(1, -1);
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new NotPlain();
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (!PLAIN.test(text) || text !== text.trim()) throw new NotPlain();
  if (key) {
    // A key the core schema would read as something other than text is left to the yaml package.
    if (CORE_NULL.test(text) || CORE_BOOL.test(text) || CORE_NUMBER.test(text)) throw new NotPlain();
    return text;
  }
  if (text === 'null' || text === '~') return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (SIMPLE_NUMBER.test(text)) return Number(text);
  if (CORE_NULL.test(text) || CORE_BOOL.test(text) || CORE_NUMBER.test(text)) throw new NotPlain();
  return text;
}

interface Line {
  number: number;
  indent: number;
  key: string;
  /** The text after `key:`, or '' when the value follows on the next lines. */
  rest: string;
}

function lines(text: string): Line[] {
  const out: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const body = line.trimStart();
    if (body === '' || body.startsWith('#')) return;
    if (/\t/.test(line) || body === '---' || body === '...') throw new NotPlain();
    const match = /^(.*?):(?: +(.*))?$/.exec(body);
    if (!match) throw new NotPlain();
    out.push({ number: i + 1, indent: line.length - body.length, key: match[1]!, rest: (match[2] ?? '').trimEnd() });
  });
  return out;
}

/** Parses `lines[at...]` at `indent` into a mapping; returns it and the index after it. */
function mapping(all: Line[], at: number, indent: number, depth = 1): [PlainEntry[], number] {
  if (depth > MAX_DEPTH) throw new TooDeep(all[at]!.number);
  const entries: PlainEntry[] = [];
  // Keys seen, so that a duplicate is found in one pass, however many keys there are.
  const keys = new Set<string>();
  let i = at;
  while (i < all.length && all[i]!.indent >= indent) {
    const line = all[i]!;
    if (line.indent !== indent) throw new NotPlain();
    const key = scalar(line.key, true) as string;
    if (keys.has(key)) throw new NotPlain();
    keys.add(key);
    i++;
    let value: PlainNode;
    if (line.rest === '') {
      const next = all[i];
      if (!next || next.indent <= indent) throw new NotPlain(); // an empty value: left to the yaml package
      const [nested, after] = mapping(all, i, next.indent, depth + 1);
      value = { line: next.number, value: nested };
      i = after;
    } else if (line.rest === '{}') {
      value = { line: line.number, value: [] };
    } else {
      value = { line: line.number, value: scalar(line.rest, false) };
    }
    entries.push({ key, keyLine: line.number, value });
  }
  return [entries, i];
}

/** The document as a mapping, or null when it is not in the plain form read here. */
export function plainYaml(text: string): PlainNode | null {
  try {
    const all = lines(text.startsWith('\uFEFF') ? text.slice(1) : text);
    if (all.length === 0 || all[0]!.indent !== 0) return null;
    const [entries, end] = mapping(all, 0, 0);
    if (end !== all.length) return null;
    return { line: all[0]!.number, value: entries };
  } catch (err) {
    if (err instanceof NotPlain) return null;
    throw err;
  }
}
