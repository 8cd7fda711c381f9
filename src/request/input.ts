// What a command reads besides its arguments: standard input, the files the user names, and the
// documents in them (JSON, NDJSON or YAML).
import { lineAt, MAX_DEPTH, parseYaml as parseYamlText, readInputFile, TOO_DEEP, tooDeepAt, YamlProblem } from '../config/files.js';
import { UsageError } from '../errors.js';

type Input = AsyncIterable<string | Buffer | Uint8Array>;

/** Everything on a stream, as UTF-8 text. */
export async function readAll(input: Input): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret on stdin, less one trailing newline (`echo "$TOKEN" | cmdb login --token-stdin`). */
export async function readStdin(io: { stdin: Input }, what: string, flag: string): Promise<string> {
  const value = (await readAll(io.stdin)).replace(/\r?\n$/, '');
  if (!value) throw new UsageError(`${flag} read no ${what} from stdin`, `pipe it in, for example: printenv SECRET | cmdb login ${flag} ...`);
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
  const at = tooDeepAt(text);
  throw new UsageError(`${source}${at === null ? '' : `, line ${lineAt(text, at)}`}: ${TOO_DEEP}`, 'a body or a configuration document nests a few levels: check that this is the file you meant');
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
    const hint = err.kind === 'tag' ? 'a body is plain data: remove the tag' : err.kind === 'documents' ? 'put the objects in one list (a YAML sequence, or a JSON array) in one document' : null;
    throw new UsageError(`${source}, line ${err.line}: ${err.message}`, hint);
  }
  try {
    return parsed.doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    throw new UsageError(`${source}: its YAML aliases (*name) expand too far (an alias bomb?): ${err.message}`, 'write the data out, or refer to each anchor fewer times');
  }
}

/** JSON, NDJSON (one object per line) or YAML, in that order of trial; every one bounded (see parseYaml). */
export async function parseDocument(text: string, source: string): Promise<unknown> {
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError(`${source} is empty`);
  let json: { value: unknown } | null = null;
  try {
    json = { value: JSON.parse(trimmed) };
  } catch {
    /* not a single JSON document */
  }
  if (json) return boundedJson(json.value, trimmed, source);
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{'))) {
    let values: unknown[] | null = null;
    try {
      values = lines.map((l) => JSON.parse(l));
    } catch {
      /* not NDJSON either */
    }
    if (values) return boundedJson(values, trimmed, source);
  }
  return parseYaml(trimmed, source);
}
