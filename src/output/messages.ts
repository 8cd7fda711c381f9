// Errors, warnings and notices on stderr: labelled lines for people, one JSON line for programs.
import { paint } from './color.js';
import { escapeJsonControls, sanitizeMultiline } from './text.js';

export interface ErrorReport {
  exit: number;
  /** HTTP status, null when the device was not reached. */
  status: number | null;
  /** The device's `error` code, null when it sent none. */
  code: number | null;
  message: string;
  hint?: string | null;
  /** The device's own text (`cli_error`), worth showing as is. */
  cliError?: string | null;
  /** The device (profile name) the error happened on, when the run worked on several. */
  device?: string | null;
  /** A bulk run's summary: how many items failed, of how many. */
  counts?: { failed: number; total: number };
  /**
   * A write that never reached the device (`not_applied`), or whose answer was lost and reading back did not show it
   * applied (`unknown`).
   */
  outcome?: string | null;
}

function present(text: string | null | undefined): text is string {
  return typeof text === 'string' && text.trim() !== '';
}

/** Continuation lines of a multi-line message stay indented under their label. */
function indentRest(text: string, indent: string): string {
  return sanitizeMultiline(text.trimEnd())
    .split('\n')
    .join('\n' + indent);
}

/**
 * An error for stderr. json: exactly one line
 * `{"error":{"exit":6,"status":404,"code":-3,"message":"...","hint":"..."}}` (hint null when
 * there is none, cli_error only when the device sent one, `outcome` only for a write whose answer was
 * lost and read back, `device` first when the run worked on several). Otherwise `cmdb: <message>`, then
 * `  device said: ...` and `  hint: ...` lines.
 */
export function formatError(err: ErrorReport, opts: { json: boolean; color: boolean }): string {
  if (opts.json) {
    const error: Record<string, unknown> = {
      ...(present(err.device) ? { device: err.device } : {}),
      exit: err.exit,
      status: err.status ?? null,
      code: err.code ?? null,
      message: err.message,
      hint: present(err.hint) ? err.hint : null,
    };
    if (present(err.cliError)) error.cli_error = err.cliError;
    if (present(err.outcome)) error.outcome = err.outcome;
    if (err.counts) Object.assign(error, err.counts);
    return escapeJsonControls(JSON.stringify({ error })) + '\n';
  }
  const prefix = opts.color ? paint('red', 'cmdb:') : 'cmdb:';
  const device = present(err.device) ? `${err.device}: ` : '';
  let text = `${prefix} ${device}${indentRest(err.message, '  ')}\n`;
  if (present(err.cliError)) text += `  device said: ${indentRest(err.cliError, '    ')}\n`;
  if (present(err.hint)) {
    const hint = `  hint: ${indentRest(err.hint, '    ')}`;
    text += (opts.color ? paint('dim', hint) : hint) + '\n';
  }
  return text;
}

/** `cmdb: warning: <message>`, the prefix yellow when colour is on. */
export function formatWarning(message: string, color: boolean): string {
  const prefix = 'cmdb: warning:';
  return `${color ? paint('yellow', prefix) : prefix} ${indentRest(message, '  ')}\n`;
}

/** `cmdb: <message>`, dim when colour is on: a side remark, not a problem. */
export function formatNotice(message: string, color: boolean): string {
  const line = `cmdb: ${indentRest(message, '  ')}`;
  return (color ? paint('dim', line) : line) + '\n';
}
