// What a command reads besides its arguments: standard input, the files the user names, and the
// documents in them (JSON, NDJSON or YAML).
import {
  lineAt,
  MAX_DEPTH,
  parseYaml as parseYamlText,
  readInputFile,
  TOO_DEEP,
  tooDeepAt,
  YamlProblem,
} from '../config/files.js';
import { UsageError } from '../errors.js';

export type Input = AsyncIterable<string | Buffer | Uint8Array>;

/** Everything on a stream, as UTF-8 text. */
export async function readAll(input: Input): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret on stdin, less one trailing newline (`echo "$TOKEN" | cmdb login --token-stdin`). */
export async function readStdin(io: { stdin: Input }, what: string, flag: string): Promise<string> {
  const value = (await readAll(io.stdin)).replace(/\r?\n$/, '');
  if (!value)
    throw new UsageError(
      `${flag} read no ${what} from stdin`,
      `pipe it in, for example: printenv SECRET | cmdb login ${flag} ...`,
    );
  return value;
}

/** The text of `-f`: a file, or standard input for `-`; with the name messages use for it. */
export async function readSource(stdin: Input, file: string): Promise<{ text: string; source: string }> {
  if (file === '-') return { text: await readAll(stdin), source: 'standard input' };
  return { text: await readInputFile(file), source: `'${file}'` };
}

/** How deeply `value` nests arrays and objects (a scalar: 0), walked without recursion; stops past `limit`. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** JSON whose nesting passes the bound every document has (JSON.parse itself nests without limit). */
export function boundedJson(value: unknown, text: string, source: string): unknown {
  if (depthOf(value, MAX_DEPTH) <= MAX_DEPTH) return value;
  throw tooDeep(text, source, tooDeepAt(text));
}

function tooDeep(text: string, source: string, at: number | null): UsageError {
  return new UsageError(
    `${source}${at === null ? '' : `, line ${lineAt(text, at)}`}: ${TOO_DEEP}`,
    'a body or a configuration document nests a few levels: check that this is the file you meant',
  );
}

/**
 * One YAML (or JSON) document, or a usage error naming the source and the line (exit 2, nothing sent):
 * bounded as every document cmdb reads is (config/files.ts parseYaml: nesting, one document, known
 * tags, unique keys), and its aliases expanded at most 100 times (an alias bomb is refused).
 */
export async function parseYaml(text: string, source: string): Promise<unknown> {
  let parsed: ReturnType<typeof parseYamlText>;
  try {
    parsed = parseYamlText(text);
  } catch (err) {
    if (!(err instanceof YamlProblem)) throw err;
    const hint =
      err.kind === 'tag'
        ? 'a body is plain data: remove the tag'
        : err.kind === 'documents'
          ? 'put the objects in one list (a YAML sequence, or a JSON array) in one document'
          : null;
    throw new UsageError(`${source}, line ${err.line}: ${err.message}`, hint);
  }
  try {
    return parsed.doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    throw new UsageError(
      `${source}: its YAML aliases (*name) expand too far (an alias bomb?): ${err.message}`,
      'write the data out, or refer to each anchor fewer times',
    );
  }
}

/** JSON.parse's complaint, with its position as a line and column of `text` (first line: `line`). */
function jsonError(err: unknown, text: string, line = 1): { message: string; line: number } {
  const message = (err as Error).message;
  const at = /^(.*?) in JSON at position (\d+)/.exec(message);
  if (!at) return { message: message.replace(/ of JSON input$/, ''), line: line + text.split('\n').length - 1 };
  const before = text.slice(0, Number(at[2])).split('\n');
  return {
    message: `${at[1]} at line ${line + before.length - 1}, column ${before.at(-1)!.length + 1}`,
    line: line + before.length - 1,
  };
}

/** Lines of NDJSON: more than one non-blank line, each an object's opening brace. */
const ndjsonLines = (text: string) => {
  const lines = text.split(/\r?\n/);
  const filled = lines.filter((l) => l.trim());
  return filled.length > 1 && filled.every((l) => l.trim().startsWith('{')) ? lines : null;
};

/**
 * JSON, NDJSON (one object per line) or YAML. A file named .json is JSON and one named .ndjson or
 * .jsonl NDJSON; otherwise each is tried in that order. A document that looks like JSON (it opens
 * with a brace or bracket) and is not YAML either is reported as JSON, with its line.
 */
export async function parseDocument(text: string, source: string): Promise<unknown> {
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError(`${source} is empty`);
  const named = /\.(json|ndjson|jsonl)'?$/i.exec(source)?.[1]?.toLowerCase();
  const lead = text.length - text.trimStart().length;
  const firstLine = text.slice(0, lead).split('\n').length;
  let asJson: UsageError | undefined;
  try {
    return boundedJson(JSON.parse(trimmed), trimmed, source);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // Nesting past the bound is the problem, whatever else is wrong (an unclosed `[[[[...`).
    const deep = tooDeepAt(trimmed);
    if (deep !== null) throw tooDeep(trimmed, source, deep);
    asJson = new UsageError(`${source} is not valid JSON: ${jsonError(err, trimmed, firstLine).message}`);
  }
  const lines = named === 'json' ? null : ndjsonLines(text);
  if (lines) {
    const objects: unknown[] = [];
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        objects.push(JSON.parse(line));
      } catch (err) {
        asJson = new UsageError(
          `${source} is not valid NDJSON: line ${i + 1}: ` +
            `${jsonError(err, line, i + 1).message.replace(/ at line \d+,/, ' at')}`,
          'NDJSON is one JSON object per line',
        );
        if (named) throw asJson;
        break;
      }
    }
    if (objects.length === lines.filter((l) => l.trim()).length) return boundedJson(objects, trimmed, source);
  }
  if (named) throw asJson;
  if (/^[[{]/.test(trimmed)) {
    try {
      return await parseYaml(trimmed, source);
    } catch (err) {
      // Bounds are the document's own problem whatever its syntax; anything else: it was meant as JSON.
      if (err instanceof UsageError && /nests|alias|documents/.test(err.message)) throw err;
      throw asJson;
    }
  }
  return parseYaml(trimmed, source);
}

/**
 * The line of the `index`th element of a list document (JSON array, NDJSON or YAML sequence), for messages; null when
 * unknown.
 */
export async function elementLine(text: string, index: number): Promise<number | null> {
  const lines = ndjsonLines(text);
  if (lines) {
    let seen = -1;
    for (const [i, line] of lines.entries()) if (line.trim() && ++seen === index) return i + 1;
    return null;
  }
  const { parseDocument, LineCounter, isSeq } = await import('yaml');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, logLevel: 'silent' });
  const item = isSeq(doc.contents) ? doc.contents.items[index] : undefined;
  const start = (item as { range?: [number] } | undefined)?.range?.[0];
  return start === undefined ? null : lineCounter.linePos(start).line;
}
