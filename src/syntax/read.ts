// The one reader of the device's configuration syntax: text → statements (with their line numbers) →
// a tree of `config` and `edit` blocks, checked for shape as it is read. Built with an explicit stack,
// never recursion, and bounded: a file past the size limit, or blocks nested past MAX_NESTING, is a
// usage error naming the file and line, found before the rest of the file is read.
import { UsageError } from '../errors.js';

/** How deeply `config` and `edit` blocks may nest (a backup nests about ten: VDOM, table, object, sub-tables). */
export const MAX_NESTING = 64;

/** The most characters a configuration file may hold (a large device's backup is a few megabytes). */
export const MAX_CONF_LENGTH = 64 * 1024 * 1024;

/** Where a block stands: what it may hold follows from it. */
export type BlockKind =
  | 'root'
  /** `config vdom` at the top: the VDOM list, or one VDOM's block. */
  | 'vdoms'
  /** `edit <vdom>` in `config vdom`. */
  | 'vdom'
  /** `config global` at the top. */
  | 'global'
  /** `config <table path>` (at the top, in `config global`, in a VDOM). */
  | 'table'
  /** `edit <key>` in a table. */
  | 'object'
  /** `config <field>` in an object, a singleton or a sub-table entry. */
  | 'sub'
  /** `edit <key>` in a sub-table. */
  | 'entry';

/** One statement of the file, and for `config` and `edit` the statements inside. */
export interface ConfNode {
  verb: string;
  line: number;
  args: string[];
  /** Whether the last argument was quoted (`config system replacemsg mail "email-block"`). */
  lastQuoted: boolean;
  kind?: BlockKind;
  children?: ConfNode[];
}

export interface ParsedConf {
  root: ConfNode;
  /** The leading comments of the form `#name=value`, by name (`config-version`, `cmdb:defaults`). */
  header: Record<string, string>;
}

const VERBS = [
  'config',
  'edit',
  'set',
  'unset',
  'append',
  'unselect',
  'delete',
  'purge',
  'rename',
  'move',
  'next',
  'end',
] as const;
const KNOWN = new Set<string>(VERBS);
const FIELD_VERBS = new Set(['set', 'unset', 'append', 'unselect']);
const TABLE_VERBS = new Set(['delete', 'purge', 'rename', 'move']);

/** The first line of a document in this syntax, past comments: `config ...`. */
const CONFIG_LINE = /^config(\s|$)/;

/**
 * Whether a text is in the device's syntax, by its content: the first line that is neither blank nor a
 * comment starts with `config `, or a leading comment is a backup's `#config-version=` header.
 */
export function isConf(text: string): boolean {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end).trim();
    if (line.startsWith('#config-version=')) return true;
    if (line && !line.startsWith('#')) return CONFIG_LINE.test(line);
    at = end + 1;
  }
  return false;
}

/** A usage error at a line of a file: `fw.conf:12: set outside an edit block`. */
export function confError(source: string, line: number, message: string, hint: string | null = null): UsageError {
  return new UsageError(`${source}:${line}: ${message}`, hint);
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;
const HASH = 35;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

/** The line (from 1) of an offset of the text. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * The statements of a text, one at a time: a statement is a line's words, a quoted word running on over
 * line ends (`"...\n..."`, `'...'`; `\"`, `\'` and `\\` escaped inside), and a line whose first word
 * starts with `#` a comment.
 */
class Lexer {
  private at = 0;
  private line = 1;
  /** Comments of the form `#name=value` seen before the first statement. */
  readonly header: Record<string, string> = {};
  private started = false;
  /** The next backslash at or after the last one asked for (-1: none left), kept to search the text once. */
  private escapeAt = 0;

  constructor(
    private readonly text: string,
    private readonly source: string,
  ) {
    if (text.charCodeAt(0) === 0xfeff) this.at = 1;
  }

  /** The next statement, or undefined at the end of the text. */
  next(): ConfNode | undefined {
    const text = this.text;
    const n = text.length;
    let words: string[] | undefined;
    let lastQuoted = false;
    let line = this.line;
    while (this.at < n) {
      const c = text.charCodeAt(this.at);
      if (c === SPACE || c === TAB || c === CR) {
        this.at++;
        continue;
      }
      if (c === LF) {
        this.at++;
        this.line++;
        if (words) break;
        continue;
      }
      if (!words && c === HASH) {
        this.comment();
        continue;
      }
      if (!words) {
        words = [];
        line = this.line;
      }
      lastQuoted = this.word(words);
    }
    if (!words) return undefined;
    this.started = true;
    return { verb: words[0], line, args: words.slice(1), lastQuoted: lastQuoted && words.length > 1 };
  }

  private comment(): void {
    let end = this.text.indexOf('\n', this.at);
    if (end < 0) end = this.text.length;
    if (!this.started) {
      const body = this.text.slice(this.at + 1, end).trim();
      const eq = body.indexOf('=');
      if (eq > 0) this.header[body.slice(0, eq)] ??= body.slice(eq + 1);
    }
    this.at = end;
  }

  /** One word (bare parts and quoted parts, up to a space or a line end) pushed; whether it was quoted. */
  private word(words: string[]): boolean {
    const text = this.text;
    const n = text.length;
    let value = '';
    let quoted = false;
    while (this.at < n) {
      const c = text.charCodeAt(this.at);
      if (c === SPACE || c === TAB || c === CR || c === LF) break;
      if (c === DQUOTE || c === SQUOTE) {
        value += this.quoted(c);
        quoted = true;
        continue;
      }
      const start = this.at;
      let at = this.at + 1;
      while (at < n) {
        const d = text.charCodeAt(at);
        if (d === SPACE || d === TAB || d === CR || d === LF || d === DQUOTE || d === SQUOTE) break;
        at++;
      }
      value += text.slice(start, at);
      this.at = at;
    }
    words.push(value);
    return quoted;
  }

  /** A quoted part, from its opening quote past its closing one; a quote still open at the end is the error. */
  private quoted(quote: number): string {
    const text = this.text;
    const opened = this.line;
    const mark = quote === DQUOTE ? '"' : "'";
    let at = this.at + 1;
    let value = '';
    for (;;) {
      const close = text.indexOf(mark, at);
      if (this.escapeAt >= 0 && this.escapeAt < at) this.escapeAt = text.indexOf('\\', at);
      const backslash = this.escapeAt;
      if (close < 0)
        throw confError(
          this.source,
          opened,
          `a value opened with ${mark} here is not closed`,
          `close it with ${mark}; write ${mark} inside a value as \\${mark}`,
        );
      if (backslash >= 0 && backslash < close) {
        value += text.slice(at, backslash);
        const next = text.charCodeAt(backslash + 1);
        // `\"`, `\'` and `\\` stand for the character; any other backslash is itself.
        if (next === quote || next === BACKSLASH) {
          value += text[backslash + 1];
          at = backslash + 2;
        } else {
          value += '\\';
          at = backslash + 1;
        }
        continue;
      }
      value += text.slice(at, close);
      this.at = close + 1;
      break;
    }
    for (let nl = value.indexOf('\n'); nl >= 0; nl = value.indexOf('\n', nl + 1)) this.line++;
    return value;
  }
}

/** A block as messages name it: `config firewall address`, `edit "lan-net"`, `edit 7`. */
function describe(node: ConfNode): string {
  const args = node.verb === 'edit' ? node.args.map((a) => (/^\d+$/.test(a) ? a : JSON.stringify(a))) : node.args;
  const what = args.length ? `${node.verb} ${args.join(' ')}` : node.verb;
  return `${what.length > 60 ? `${what.slice(0, 57)}...` : what} (line ${node.line})`;
}

/** Why a verb may not stand where it does, or undefined when it may. */
function misplaced(verb: string, where: BlockKind, parent: ConfNode): string | undefined {
  if (verb === 'config') {
    if (where === 'vdoms') return 'config inside config vdom: edit <vdom> first';
    if (where === 'vdom' || where === 'global' || where === 'root') return undefined;
    return undefined;
  }
  if (verb === 'edit') {
    if (where === 'vdoms' || where === 'table' || where === 'sub') return undefined;
    if (where === 'object' || where === 'entry' || where === 'vdom')
      return `edit inside ${describe(parent)}: next missing before it`;
    return 'edit outside a config block';
  }
  if (FIELD_VERBS.has(verb)) {
    if (where === 'table' || where === 'object' || where === 'sub' || where === 'entry' || where === 'vdom')
      return undefined;
    if (where === 'vdoms') return `${verb} outside an edit block`;
    return `${verb} outside a config block`;
  }
  if (TABLE_VERBS.has(verb)) {
    if (where === 'table') return undefined;
    if (where === 'sub')
      return `${verb} inside a sub-table (${parent.args[0]}) is not supported: write the entries it should hold`;
    if (where === 'object' || where === 'entry' || where === 'vdom')
      return `${verb} inside ${describe(parent)}: next missing before it`;
    return `${verb} outside a config block`;
  }
  if (verb === 'next')
    return where === 'object' || where === 'entry' || where === 'vdom' ? undefined : 'next without edit';
  return where === 'root' ? 'end without config' : undefined;
}

/** Why a statement's arguments are wrong, or undefined. */
function badArguments(node: ConfNode): string | undefined {
  const { verb, args } = node;
  switch (verb) {
    case 'config':
      return args.length ? undefined : 'config needs a table or field name';
    case 'edit':
      return args.length === 1
        ? undefined
        : args.length
          ? 'edit takes one key (quote a key with spaces)'
          : 'edit needs a key';
    case 'set':
      if (!args.length) return 'set needs a field and a value';
      return args.length > 1 ? undefined : `set ${args[0]} has no value (unset ${args[0]} returns it to its default)`;
    case 'unset':
      return args.length === 1 ? undefined : 'unset takes one field';
    case 'append':
    case 'unselect':
      return args.length > 1
        ? undefined
        : `${verb} needs a field and the values to ${verb === 'append' ? 'add' : 'remove'}`;
    case 'delete':
      return args.length === 1 ? undefined : 'delete takes one key';
    case 'rename':
      return args.length === 3 && args[1] === 'to' ? undefined : 'rename takes <old> to <new>';
    case 'move':
      return args.length === 3 && (args[1] === 'before' || args[1] === 'after')
        ? undefined
        : 'move takes <key> before|after <key>';
    default:
      return args.length ? `${verb} takes nothing after it` : undefined;
  }
}

/** The kind of block a `config` or `edit` opens inside a block of `where`. */
function opens(verb: string, args: string[], where: BlockKind): BlockKind {
  if (verb === 'edit') return where === 'vdoms' ? 'vdom' : where === 'sub' ? 'entry' : 'object';
  if (where === 'root' && args.length === 1 && args[0] === 'vdom') return 'vdoms';
  if (where === 'root' && args.length === 1 && args[0] === 'global') return 'global';
  return where === 'root' || where === 'global' || where === 'vdom' ? 'table' : 'sub';
}

export interface ParseOptions {
  /** The most characters the text may have (default MAX_CONF_LENGTH). */
  maxLength?: number;
}

/**
 * Reads a text in the device's syntax into its tree of blocks, or throws a UsageError naming the file and
 * line: an unknown verb, a statement where it cannot stand (`set` outside an edit block), a block left
 * open, a quote left open, blocks nested past MAX_NESTING, a file past the size limit.
 */
export function parseConf(text: string, source: string, options: ParseOptions = {}): ParsedConf {
  const limit = options.maxLength ?? MAX_CONF_LENGTH;
  if (text.length > limit)
    throw confError(
      source,
      lineOf(text, limit),
      `the file goes on past ${limit} characters, the most a configuration file may have`,
      'split it into several files',
    );
  const lexer = new Lexer(text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text, source);
  const root: ConfNode = { verb: '', line: 0, args: [], lastQuoted: false, kind: 'root', children: [] };
  const stack: ConfNode[] = [root];
  for (let node = lexer.next(); node; node = lexer.next()) {
    const parent = stack[stack.length - 1];
    const where = parent.kind!;
    if (!KNOWN.has(node.verb))
      throw confError(
        source,
        node.line,
        `unknown command '${node.verb}'`,
        `a configuration file holds ${VERBS.join(', ')} (and # comments)`,
      );
    const wrong = misplaced(node.verb, where, parent) ?? badArguments(node);
    if (wrong) throw confError(source, node.line, wrong);
    if (node.verb === 'next') {
      stack.pop();
      continue;
    }
    if (node.verb === 'end') {
      // `end` in an edit block ends it too, as on the device.
      if (where === 'object' || where === 'entry' || where === 'vdom') stack.pop();
      stack.pop();
      continue;
    }
    parent.children!.push(node);
    if (node.verb === 'config' || node.verb === 'edit') {
      if (stack.length > MAX_NESTING)
        throw confError(
          source,
          node.line,
          `blocks nested more than ${MAX_NESTING} deep`,
          'a configuration nests a few levels: check that this is the file you meant',
        );
      node.kind = opens(node.verb, node.args, where);
      node.children = [];
      stack.push(node);
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1];
    const closer = open.verb === 'edit' ? 'next' : 'end';
    throw confError(
      source,
      open.line,
      `${describe(open).replace(/ \(line \d+\)$/, '')} is not closed: ${closer} missing`,
    );
  }
  return { root, header: lexer.header };
}
