// Words as a shell takes them, for the commands a message or hint suggests: no dependency beyond
// itself, so every layer (the write-outcome module included) can name a command the same way.

/** `--vdom a,b` as a shell takes it: `*` quoted, so the shell does not expand it. */
export function vdomFlag(vdoms: string[] | undefined): string {
  if (!vdoms?.length) return '';
  const list = vdoms.join(',');
  return ` --vdom ${/^[A-Za-z0-9_.,-]+$/.test(list) ? list : `"${list}"`}`;
}

/** A key as typed on a command line: in double quotes when the shell would split or expand it. */
export function shellWord(word: string | number): string {
  const text = String(word);
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : `"${text.replace(/["$`\\]/g, '\\$&')}"`;
}
