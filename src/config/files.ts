// The YAML files cmdb keeps (profiles, secrets) and the files a user hands it (a CA file, a body):
// read with errors that name the file and line, never the secret on it.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import { UsageError } from '../errors.js';
import { MAX_DEPTH, plainYaml, TooDeep, type PlainNode } from './plain-yaml.js';

export { MAX_DEPTH };

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

/**
 * The yaml package, loaded on first use: synchronously, because the profile's VDOM is needed by
 * the synchronous `device.vdoms`, and lazily, so that commands that read no file never load it.
 */
export function yaml(): YamlLib {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  return yamlLib;
}

/**
 * Where a YAML (or JSON) text first nests collections deeper than MAX_DEPTH, as an offset; null when
 * it does not. Read from the yaml package's lexer, which recurses no more than the text nests: flow
 * collections (`[`, `{`), block items on one line (`- - -`) and block indentation all count. Run before
 * a parse, whose composer recurses once per level (100,000 levels took seconds, then overflowed).
 */
export function tooDeepAt(text: string): number | null {
  const { Lexer, CST } = yaml();
  let offset = 0;
  let flow = 0;
  let inline = 0;
  let lineStart = true;
  const indents: number[] = [];
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    // The lexer's markers of a document, a scalar or a flow error stand for no text of their own.
    const marker = token.length === 1 && (type === 'doc-mode' || type === 'scalar' || type === 'flow-error-end');
    if (type === 'newline') {
      lineStart = true;
      inline = 0;
    } else if (!marker && type !== 'comment' && type !== 'byte-order-mark') {
      if (lineStart && flow === 0) {
        const indent = type === 'space' ? token.length : 0;
        while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
      }
      lineStart = false;
      if (type === 'flow-map-start' || type === 'flow-seq-start') flow++;
      else if ((type === 'flow-map-end' || type === 'flow-seq-end') && flow > 0) flow--;
      else if (type === 'seq-item-ind' || type === 'explicit-key-ind') inline++;
      if (flow + inline + indents.length > MAX_DEPTH) return offset;
    }
    if (!marker) offset += token.length;
  }
  return null;
}

/** The 1-based line of an offset in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Why a nesting bound was hit, as a sentence to follow a file's name and line. */
export const TOO_DEEP = `collections nested more than ${MAX_DEPTH} levels deep`;

/**
 * The first tag the YAML library could not resolve (`!!python/object`, `!!js/function`, `!custom`):
 * a document that asks for one is refused, never read as if the tag were not there.
 */
export function unknownYamlTag(
  warnings: readonly { code: string; message: string; pos: [number, number] }[],
): { tag: string; pos: number } | null {
  const warning = warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (!warning) return null;
  const tag = /Unresolved tag: (\S+)/.exec(warning.message)?.[1] ?? 'tag';
  return { tag: tag.replace(/^tag:yaml\.org,2002:/, '!!'), pos: warning.pos[0] };
}

/** A parsed YAML file, with what is needed to name the line of a bad value. */
export interface YamlFile {
  path: string;
  doc: Document;
  /** 1-based line where a node starts (1 when it has no position). */
  line(node: unknown): number;
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of the path is not a folder)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/** Why a file could not be read, in words ("no such file", not ENOENT). */
export function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return (code && FILE_PROBLEMS[code]) ?? (err as Error).message;
}

/** `<file>:<line>: <problem>`, with the fix in the hint; a broken file is invalid input (exit 2). */
export function fileError(path: string, line: number | null, problem: string, hint: string): UsageError {
  return new UsageError(`${path}${line ? `:${line}` : ''}: ${problem}`, hint);
}

/** The largest profile or credentials file read: cmdb writes a few hundred bytes per device. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

function readText(path: string, hint: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileError(path, null, `cannot read: ${fileProblem(err)}`, hint);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_CONFIG_BYTES)
      throw fileError(
        path,
        null,
        `is ${size} bytes, more than the ${MAX_CONFIG_BYTES} a cmdb configuration file may have`,
        'cmdb writes a few lines per device: check that this is the file cmdb wrote, or delete it and log in again',
      );
    return readFileSync(fd, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw fileError(path, null, `cannot read: ${fileProblem(err)}`, hint);
  } finally {
    closeSync(fd);
  }
}

/** Reads and parses a YAML file; null when it does not exist. Syntax errors name the file and line. */
export function readYamlFile(path: string, hint: string): YamlFile | null {
  const text = readText(path, hint);
  return text === null ? null : parseYamlText(path, text, hint);
}

/** Why a YAML text cannot be read as one document of plain data (a sentence), and on which line. */
export class YamlProblem extends Error {
  constructor(
    readonly kind: 'syntax' | 'depth' | 'documents' | 'tag' | 'duplicate',
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'YamlProblem';
  }
}

/**
 * One YAML (or JSON) document, parsed with bounds whatever the text holds: nesting (tooDeepAt),
 * several documents (refused: a `---` or `...` between two would otherwise drop all but one), unknown
 * tags, duplicate keys (checked here in one pass: the yaml package's own check is quadratic in a
 * mapping's keys). Throws a YamlProblem naming the line.
 */
export function parseYaml(text: string): { doc: Document; line(node: unknown): number } {
  const deep = tooDeepAt(text);
  if (deep !== null) throw new YamlProblem('depth', lineAt(text, deep), `not valid YAML: ${TOO_DEEP}`);
  const lib = yaml();
  const lineCounter: LineCounter = new lib.LineCounter();
  // An error per broken line is an Error object each; without their stack traces a file full of them
  // is parsed in linear time like any other.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let docs: Document[];
  try {
    const all = lib.parseAllDocuments(text, {
      lineCounter,
      prettyErrors: false,
      uniqueKeys: false,
      logLevel: 'silent',
    });
    docs = Array.isArray(all) ? all : [];
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const line = (node: unknown): number => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    return range ? lineCounter.linePos(range[0]).line : 1;
  };
  if (docs.length > 1)
    throw new YamlProblem(
      'documents',
      line(docs[1]),
      `holds ${docs.length} YAML documents (separated by --- or ...); cmdb reads one`,
    );
  const doc = docs[0] ?? lib.parseDocument('');
  const error = doc.errors[0];
  if (error)
    throw new YamlProblem(
      'syntax',
      error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line,
      `not valid YAML: ${error.message.split('\n')[0]!}`,
    );
  const tag = unknownYamlTag(doc.warnings);
  if (tag)
    throw new YamlProblem(
      'tag',
      lineCounter.linePos(tag.pos).line,
      `unknown YAML tag ${tag.tag}: cmdb reads plain data only`,
    );
  const duplicate = duplicateKey(doc);
  if (duplicate)
    throw new YamlProblem(
      'duplicate',
      line(duplicate.node),
      `not valid YAML: the key '${duplicate.key}' appears twice in one mapping`,
    );
  return { doc, line };
}

/** The first key a mapping of the document holds twice (by its text), with its node. */
function duplicateKey(doc: Document): { key: string; node: unknown } | null {
  const lib = yaml();
  let found: { key: string; node: unknown } | null = null;
  lib.visit(doc, {
    Map(_, map) {
      const keys = new Set<string>();
      for (const pair of map.items) {
        const key = String(lib.isScalar(pair.key) ? pair.key.value : pair.key);
        if (keys.has(key)) {
          found = { key, node: pair.key };
          return lib.visit.BREAK;
        }
        keys.add(key);
      }
      return undefined;
    },
  });
  return found;
}

function parseYamlText(path: string, text: string, hint: string): YamlFile {
  try {
    return { path, ...parseYaml(text) };
  } catch (err) {
    if (err instanceof YamlProblem) throw fileError(path, err.line, err.message, hint);
    throw err;
  }
}

/** A file the user named (`-f`, `--ca-file`, `--config`), or a usage error saying which and why not. */
export async function readInputFile(path: string, what?: string, hint: string | null = null): Promise<string> {
  try {
    // node:fs/promises loaded here, not with this module: it brings readline and the watchers (~1.5 ms).
    const { readFile } = await import('node:fs/promises');
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${what ? `${what} ` : ''}'${path}': ${fileProblem(err)}`, hint);
  }
}

/** What a node that is neither a scalar nor a mapping (a sequence, an alias...) reads as in a tree. */
const OTHER = Object.freeze({ yaml: 'not a scalar or a mapping' });

function treeOf(file: YamlFile, node: unknown, fallbackLine: number): PlainNode {
  const lib = yaml();
  if (node === null || node === undefined) return { line: fallbackLine, value: null };
  if (lib.isMap(node)) {
    return {
      line: file.line(node),
      value: node.items.map((pair) => {
        const keyLine = file.line(pair.key);
        return {
          key: String(lib.isScalar(pair.key) ? pair.key.value : pair.key),
          keyLine,
          value: treeOf(file, pair.value, keyLine),
        };
      }),
    };
  }
  return { line: file.line(node), value: lib.isScalar(node) ? node.value : OTHER };
}

/**
 * A YAML file as a tree of mappings and scalars with their lines; null when it does not exist. A file
 * in the plain form cmdb writes is read without the yaml package; any other goes through it, with
 * its syntax errors naming the file and line.
 */
export function readYamlTree(path: string, hint: string): PlainNode | null {
  const text = readText(path, hint);
  if (text === null) return null;
  let plain: PlainNode | null;
  try {
    plain = plainYaml(text);
  } catch (err) {
    if (err instanceof TooDeep) throw fileError(path, err.line, `not valid YAML: ${TOO_DEEP}`, hint);
    throw err;
  }
  if (plain) return plain;
  const file = parseYamlText(path, text, hint);
  return treeOf(file, file.doc.contents, 1);
}
