// How Tab's candidates travel to the shell's script: one per line, escaped for the shell.
import type { Candidate, Completion } from './engine.js';
import type { Shell } from '../grammar/types.js';
import type { CurrentWord } from './words.js';

/*
 * What `cmdb __complete` prints, read by the scripts of src/commands/completion.ts: nothing when there is nothing
 * to offer; else a first line `files` (let the shell complete file names) or `words` (bash:
 * `nospace` when the shell must not add a space), then one candidate per line.
 */

/** Bash inserts COMPREPLY as is: escape for the quoting the word is typed in. */
function bashQuote(text: string, quote: CurrentWord['quote']): string {
  if (quote === "'") return text.replace(/'/g, "'\\''");
  if (quote === '"') return text.replace(/["\\$`]/g, '\\$&');
  return text.replace(/[^A-Za-z0-9_\-.,:=@%+/]/g, '\\$&');
}

/** A candidate with a newline or tab in it cannot travel one per line; a device key never should. */
const printable = (c: Candidate) => !/[\n\r\t]/.test(c.value);

function header(completion: Completion, candidates: Candidate[], shell: Shell): string | undefined {
  if (completion.files) return 'files';
  if (!candidates.length) return undefined;
  return shell === 'bash' && candidates.some((c) => c.noSpace) ? 'nospace' : 'words';
}

/**
 * bash: readline replaces only the text after the last COMP_WORDBREAKS character (or after an open
 * quote), so each candidate loses the part of the word before it (`--set action=acc` → `accept`).
 * zsh: `-` or `+` (no space after it, or the usual space), the value, a tab and the description.
 * fish: the value, a tab and the description.
 */
export function formatCompletion(shell: Shell, completion: Completion, current: CurrentWord): string {
  const candidates = completion.candidates.filter(printable);
  const first = header(completion, candidates, shell);
  if (!first) return '';
  const line = (c: Candidate) => {
    const description = (c.description ?? '').replace(/\s+/g, ' ');
    if (shell === 'bash') return bashQuote(c.value.slice(current.kept), current.quote);
    if (shell === 'zsh') return `${c.noSpace ? '-' : '+'}\t${c.value}\t${description}`;
    return description ? `${c.value}\t${description}` : c.value;
  };
  return [first, ...(completion.files ? [] : candidates.map(line))].join('\n') + '\n';
}
