// Text helpers for what a terminal shows: device strings made harmless, and display widths.

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators: a device string must never
// move the cursor, change colours or break a table row.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const HAS_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

function escapeChar(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = c.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
}

/** One line, no control characters: newlines and escapes shown as `\n`, `\x1b`. */
export function sanitizeInline(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

// What JSON.stringify leaves raw although a terminal acts on it: DEL, the C1 controls (U+009B is a
// one-byte CSI) and the Unicode line separators. C0 controls it already escapes.
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/** JSON text with every control character as a `\uXXXX` escape: the same data, harmless on a terminal. */
export function escapeJsonControls(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether a string holds a character a terminal would act on (other than newline and tab). */
export function hasControls(text: string): boolean {
  return HAS_UNSAFE.test(text);
}

/** Like sanitizeInline but keeps newlines and tabs (for messages). */
export function sanitizeMultiline(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(UNSAFE_KEEP_LINES, escapeChar);
}

const ANSI_SGR = /\u001b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_SGR, '');
}

/** Code points a terminal shows two columns wide: CJK, Hangul, fullwidth forms, emoji (first, last). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function isWide(cp: number): boolean {
  return cp >= 0x1100 && WIDE.some(([first, last]) => cp >= first && cp <= last);
}

function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff
  );
}

/** Whether every character is printable ASCII: such text is its own sanitised form, one column a character. */
export function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/** Columns a string takes on a terminal (ANSI colour codes excluded, East Asian wide characters count 2). */
export function displayWidth(text: string): number {
  // Printable ASCII (nearly every cell): one column per character.
  if (isPrintableAscii(text)) return text.length;
  let width = 0;
  for (const ch of stripAnsi(text)) {
    const cp = ch.codePointAt(0)!;
    if (isZeroWidth(cp)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

/** Cut to at most `width` display columns, ending with "…" when something was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = displayWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + '…';
}

/**
 * Break one line into lines of at most `width` columns, preferring to break after a comma or a
 * space in the second half of the line, else anywhere (values are shown whole, never cut).
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width) {
    const chars = Array.from(rest);
    let fit = 0;
    let used = 0;
    while (fit < chars.length && used + displayWidth(chars[fit]!) <= width) used += displayWidth(chars[fit++]!);
    if (fit === 0) fit = 1;
    let cut = fit;
    for (let i = fit - 1; i >= Math.floor(fit / 2); i--) {
      if (chars[i] === ',' || chars[i] === ' ') {
        cut = i + 1;
        break;
      }
    }
    lines.push(chars.slice(0, cut).join('').trimEnd());
    rest = chars.slice(cut).join('');
  }
  lines.push(rest);
  return lines;
}

/**
 * A key in a line for people: as is, or in double quotes when it has spaces or other characters a shell would take
 * apart.
 */
export function keyWord(key: unknown): string {
  const text = String(key);
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : sanitizeInline(JSON.stringify(text));
}
