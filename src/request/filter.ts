// The --filter grammar (SPEC.md): field<op>value, commas for OR. Shared by the request builder and
// Tab completion, so both read a term the same way.

/** The eight filter operators of SPEC.md, longest first so `<=` is not read as `<`. */
export const FILTER_OPERATORS = ['==', '!=', '=@', '!@', '<=', '>=', '<', '>'] as const;

/** One term: the field, the operator and the value. */
export const FILTER_TERM = /^([A-Za-z0-9_.-]+)(==|!=|=@|!@|<=|>=|<|>)(.*)$/s;
