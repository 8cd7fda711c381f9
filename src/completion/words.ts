// A shell's line as Tab sees it: split into words as the shell splits it, the word under the
// cursor and how much of it the shell replaces.
import type { Shell } from '../grammar/types.js';

/** The word under the cursor, as the shell's line editor sees it. */
export interface CurrentWord {
  /** The word typed so far, quotes and escapes removed. */
  value: string;
  /** The quote still open at the cursor, if any. */
  quote: "'" | '"' | null;
  /**
   * How many characters of `value` the line editor will keep: bash's readline replaces only the text
   * after an open quote or after the last unquoted COMP_WORDBREAKS character (`--set a=b` completes `b`).
   */
  kept: number;
}

export interface SplitLine {
  /** The finished words, unquoted. */
  words: string[];
  current: CurrentWord;
}

/**
 * Splits a command line (up to the cursor) into words the way a POSIX shell does: blanks separate,
 * '…' is literal, "…" allows \" \\ \$ \`, a backslash escapes one character. `wordbreaks` are the
 * characters (besides blanks) at which bash's readline starts the text it replaces.
 */
export function splitLine(line: string, wordbreaks = ''): SplitLine {
  const words: string[] = [];
  let value = '';
  let quote: "'" | '"' | null = null;
  let started = false;
  let kept = 0;
  let quoteAt = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else value += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) value += line[++i];
      else value += c;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (started) words.push(value);
      value = '';
      started = false;
      kept = 0;
    } else {
      started = true;
      if (c === "'" || c === '"') {
        quote = c;
        quoteAt = value.length;
      } else if (c === '\\') {
        if (i + 1 < line.length) value += line[++i];
      } else {
        value += c;
        if (wordbreaks.includes(c)) kept = value.length;
      }
    }
  }
  return { words, current: { value, quote, kept: quote ? quoteAt : kept } };
}

/** bash's default, for a script that does not pass its own. */
const BASH_WORDBREAKS = `"'><=;|&(:`;

/**
 * The words of a `cmdb __complete` request. bash passes the line up to the cursor (`-- "$line"`), since
 * its COMP_WORDS are split at `=` and `:`; zsh and fish pass the words after `cmdb`, unquoted, the
 * last one being the word under the cursor.
 */
export function readRequest(shell: Shell, rest: string[], env: NodeJS.ProcessEnv): SplitLine | undefined {
  if (shell === 'bash') {
    const line = splitLine(rest[0] ?? '', env.COMP_WORDBREAKS ?? BASH_WORDBREAKS);
    // No finished word yet: the cursor is on the program name itself.
    return line.words.length ? { words: line.words.slice(1), current: line.current } : undefined;
  }
  const current: CurrentWord = { value: rest[rest.length - 1] ?? '', quote: null, kept: 0 };
  return { words: rest.slice(0, -1), current };
}
