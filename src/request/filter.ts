// The --filter grammar (SPEC.md): field<op>value, commas for OR. Shared by the request builder and
// Tab completion, so both read a term the same way.

/** The eight filter operators of SPEC.md, longest first so `<=` is not read as `<`. */
export const FILTER_OPERATORS = ['==', '!=', '=@', '!@', '<=', '>=', '<', '>'] as const;

/** One term: the field, the operator and the value. */
export const FILTER_TERM = /^([A-Za-z0-9_.-]+)(==|!=|=@|!@|<=|>=|<|>)(.*)$/s;

/**
 * The terms of one filter: it splits on the commas that separate alternatives (OR). Inside a value
 * `\,` is a literal comma and `\\` a backslash (the device's escapes); a backslash that starts
 * neither is a literal one and gets escaped, so what is sent means what was typed.
 */
export function filterTerms(expr: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < expr.length; i++) {
    const char = expr[i];
    const next = expr[i + 1];
    if (char === '\\') {
      const escaped = next === ',' || next === '\\';
      current += escaped ? char + next : '\\\\';
      if (escaped) i++;
    } else if (char === ',') {
      terms.push(current);
      current = '';
    } else current += char;
  }
  terms.push(current);
  return terms;
}
