import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import { UsageError } from '../errors.js';
import { plainYaml, type PlainNode } from './plain-yaml.js';

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

/**
 * The yaml package, loaded on first use: synchronously, because the profile's VDOM is needed by
 * the synchronous `ctx.vdoms()`, and lazily, so that commands that read no file never load it.
 */
export function yaml(): YamlLib {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  return yamlLib;
}

/**
 * The first tag the YAML library could not resolve (`!!python/object`, `!!js/function`, `!custom`):
 * a document that asks for one is refused, never read as if the tag were not there.
 */
export function unknownYamlTag(warnings: readonly { code: string; message: string; pos: [number, number] }[]): { tag: string; pos: number } | null {
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

function readText(path: string, hint: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileError(path, null, `cannot read: ${fileProblem(err)}`, hint);
  }
}

/** Reads and parses a YAML file; null when it does not exist. Syntax errors name the file and line. */
export function readYamlFile(path: string, hint: string): YamlFile | null {
  const text = readText(path, hint);
  return text === null ? null : parseYamlText(path, text, hint);
}

function parseYamlText(path: string, text: string, hint: string): YamlFile {
  const { parseDocument, LineCounter: Counter } = yaml();
  const lineCounter: LineCounter = new Counter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'silent' });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line;
    throw fileError(path, line, `not valid YAML: ${error.message.split('\n')[0]}`, hint);
  }
  const tag = unknownYamlTag(doc.warnings);
  if (tag) throw fileError(path, lineCounter.linePos(tag.pos).line, `unknown YAML tag ${tag.tag}: cmdb reads plain data only`, hint);
  const line = (node: unknown): number => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    return range ? lineCounter.linePos(range[0]).line : 1;
  };
  return { path, doc, line };
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
        return { key: String(lib.isScalar(pair.key) ? pair.key.value : pair.key), keyLine, value: treeOf(file, pair.value, keyLine) };
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
  const plain = plainYaml(text);
  if (plain) return plain;
  const file = parseYamlText(path, text, hint);
  return treeOf(file, file.doc.contents, 1);
}
