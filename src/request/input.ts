// What a command reads besides its arguments: standard input, the files the user names, and the
// documents in them (JSON, NDJSON or YAML).
import { readInputFile, unknownYamlTag } from '../config/files.js';
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

/** One YAML (or JSON) document, or a usage error naming the source and the line; unknown tags are refused. */
export async function parseYaml(text: string, source: string): Promise<unknown> {
  const { parseDocument, LineCounter } = await import('yaml');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, logLevel: 'silent' });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0] ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
    throw new UsageError(`${source} is neither valid JSON nor YAML${at}: ${error.message.split('\n')[0]}`);
  }
  const tag = unknownYamlTag(doc.warnings);
  if (tag) {
    throw new UsageError(`${source} uses the YAML tag ${tag.tag} (line ${lineCounter.linePos(tag.pos).line}), which cmdb does not know`, 'a body is plain data: remove the tag');
  }
  return doc.toJS({ maxAliasCount: 100 });
}

/** JSON, NDJSON (one object per line) or YAML, in that order of trial. */
export async function parseDocument(text: string, source: string): Promise<unknown> {
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError(`${source} is empty`);
  try {
    return JSON.parse(trimmed);
  } catch {
    /* not a single JSON document */
  }
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{'))) {
    try {
      return lines.map((l) => JSON.parse(l));
    } catch {
      /* not NDJSON either */
    }
  }
  return parseYaml(trimmed, source);
}
