/**
 * The device's body parser also takes single-quoted strings (`{'name': 'Test'}`, as a public client's
 * documentation sends them). Strict JSON is the fast path: this is tried only when `JSON.parse` fails.
 */

/** `text` with each single-quoted string rewritten as a JSON string; double-quoted strings are copied as they are. */
function requote(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // A JSON string: copied up to its closing quote, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "'") {
      let j = i + 1;
      let inner = '';
      while (j < text.length && text[j] !== "'") {
        if (text[j] === '\\' && text[j + 1] === "'") {
          inner += "'";
          j += 2;
        } else if (text[j] === '\\') {
          inner += text.slice(j, j + 2);
          j += 2;
        } else {
          inner += text[j] === '"' ? '\\"' : text[j];
          j += 1;
        }
      }
      if (j >= text.length) throw new SyntaxError('unterminated single-quoted string');
      out += `"${inner}"`;
      i = j + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Parses a body as JSON, or as JSON with single-quoted strings; throws a SyntaxError when it is neither. */
export function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!text.includes("'")) throw error;
    return JSON.parse(requote(text));
  }
}
