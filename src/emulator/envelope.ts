/** The device's response envelopes and the errors that become them. */

export const DEVICE = {
  serial: 'FGVMEMU000000001',
  version: 'v6.4.14',
  build: 2093,
  model: 'CMDB-VM64',
  /** The platform in firmware image names and configuration headers. */
  platform: 'FGVM64',
  /** The build's date, as image names carry it (YYMMDD). */
  buildDate: '230912',
} as const;

/** A failure the device reports in its JSON error envelope. */
export class DeviceError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly cliError?: string,
    /** Fields the device adds to this error's envelope (`revision_changed: false` on a refused delete). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(cliError ?? `HTTP ${httpStatus} (error ${code})`);
  }
}

/**
 * The CLI layer's refusal as 6.4 devices word it: several lines, the object and
 * value first, the emulator's explanation, then the return code.
 */
export function cliRefusal(code: number, subject: string, detail: string): string {
  return `node_check_object fail! for ${subject}\n\n${detail}\nCommand fail. Return code ${code}\n`;
}

/** `firewall/address` → `firewall.address`, as the CLI layer names a table in its messages. */
const cliTable = (tablePath: string) => tablePath.replace('/', '.');

/** What the CLI layer says when a delete fails (PROTOCOL.md "References and integrity"), with the emulator's reason. */
function deleteRefusal(tablePath: string, key: unknown, reason: string): string {
  return (
    `${reason} command_cli_delete:${cliTable(tablePath)} delete table entry ${String(key)} unset oper error ret=-23\n` +
    'Command fail. Return code -23\n'
  );
}

/** A value the device's CLI layer refuses: HTTP 500 with its code, as 6.4 devices answer. */
const refused =
  (code: number) =>
  (detail: string, subject = 'value') =>
    new DeviceError(500, code, cliRefusal(code, subject, detail));

/**
 * The error texts of the emulator. Codes follow the device's table of CLI
 * errors: -3 not found, -5 duplicate, -651 invalid value, -72 too long,
 * -1 invalid length, -8 invalid IP, -14/-37 permission denied, -50 invalid
 * request. Real 6.4 devices answer a duplicate and a value their CLI layer
 * refuses with HTTP 500; 424 is the API layer's (a body that is not JSON, a
 * missing required attribute).
 */
export const fail = {
  notFound: (cliError?: string) => new DeviceError(404, -3, cliError),
  duplicate: (keyField: string, key: unknown) =>
    new DeviceError(500, -5, cliRefusal(-5, `${keyField} ${JSON.stringify(key)}`, 'A duplicate entry already exists.')),
  mustBeSet: (field: string) => new DeviceError(424, -651, `Attribute '${field}' MUST be set`),
  notJson: (detail: string) => new DeviceError(424, -651, detail),
  invalidValue: refused(-651),
  invalidIp: refused(-8),
  tooLong: refused(-72),
  invalidLength: refused(-1),
  invalidRequest: (cliError: string) => new DeviceError(400, -50, cliError),
  missingParameter: (cliError: string) => new DeviceError(424, -651, cliError),
  methodNotAllowed: (cliError: string) => new DeviceError(405, -50, cliError),
  tooLarge: (limit: number) => new DeviceError(413, -1, `request entity larger than ${limit} bytes`),
  noGroup: (group: string) =>
    new DeviceError(403, -14, `Permission denied: the access profile lacks access group '${group}'`),
  noVdom: (vdom: string) =>
    new DeviceError(403, -37, `Permission denied: VDOM '${vdom}' does not exist or is not accessible`),
  noTransaction: (id: unknown) =>
    new DeviceError(404, -3, `transaction ${String(id)} does not exist (expired, committed or aborted)`),
  internal: (message: string) => new DeviceError(500, -1, message),
  /**
   * A reference to an object that does not exist: the CLI layer cannot parse an interface or zone
   * (-651), any other missing object is not found in the field's datasource (-3). Nothing is written.
   */
  missingReference: (field: string, name: string, parsed: boolean) =>
    parsed
      ? new DeviceError(500, -651, cliRefusal(-651, `${field} ${name}`, `value parse error before '${name}'`))
      : new DeviceError(
          500,
          -3,
          cliRefusal(-3, `${field} ${name}`, `entry not found in datasource\nvalue parse error before '${name}'`),
        ),
  /** A delete (or a change) taking away an object other objects name: -23, nothing changed. */
  inUse: (tablePath: string, key: unknown, users: string) =>
    new DeviceError(500, -23, deleteRefusal(tablePath, key, `${String(key)} is in use by ${users}.`), {
      revision_changed: false,
    }),
  /** A factory object (`q_static`) cannot be deleted. */
  factoryObject: (tablePath: string, key: unknown) =>
    new DeviceError(
      500,
      -23,
      deleteRefusal(tablePath, key, `${String(key)} is a factory object (q_static) and cannot be deleted.`),
      { revision_changed: false },
    ),
  /** A factory object keeps its name (`q_no_rename`). */
  noRename: (tablePath: string, key: unknown) =>
    new DeviceError(
      500,
      -651,
      cliRefusal(
        -651,
        `name ${String(key)}`,
        `${cliTable(tablePath)} ${String(key)} is a factory object and cannot be renamed`,
      ),
    ),
};

/** Where a response is about: method, VDOM, table (`path`/`name` as the device splits it) and key. */
export interface EnvelopeContext {
  http_method: string;
  vdom?: string;
  path?: string;
  name?: string;
  mkey?: unknown;
}

/** `firewall.ipmacbinding/table` → `{path: 'firewall.ipmacbinding', name: 'table'}`. */
export function splitTablePath(tablePath: string): { path: string; name: string } {
  const slash = tablePath.indexOf('/');
  return { path: tablePath.slice(0, slash), name: tablePath.slice(slash + 1) };
}

function located(context: EnvelopeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ['vdom', 'path', 'name', 'mkey'] as const) {
    if (context[field] !== undefined) out[field] = context[field];
  }
  return out;
}

const stamp = () => ({ serial: DEVICE.serial, version: DEVICE.version, build: DEVICE.build });

export interface SuccessFields {
  revision?: string;
  revisionChanged?: boolean;
  oldRevision?: string;
  results?: unknown;
}

export function successEnvelope(context: EnvelopeContext, fields: SuccessFields): Record<string, unknown> {
  const out: Record<string, unknown> = { http_method: context.http_method };
  if (fields.revision !== undefined) out.revision = fields.revision;
  if (fields.revisionChanged !== undefined) {
    out.revision_changed = fields.revisionChanged;
    out.old_revision = fields.oldRevision;
  }
  if (fields.results !== undefined) out.results = fields.results;
  return { ...out, ...located(context), status: 'success', http_status: 200, ...stamp() };
}

export function errorEnvelope(context: EnvelopeContext, error: DeviceError): Record<string, unknown> {
  const out: Record<string, unknown> = {
    http_method: context.http_method,
    ...located(context),
    status: 'error',
    http_status: error.httpStatus,
    error: error.code,
    ...error.extra,
  };
  if (error.cliError !== undefined) out.cli_error = error.cliError;
  return { ...out, ...stamp() };
}

const REASONS: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
};

/** The HTML error page devices send for authentication failures (clients must not expect JSON there). */
export function htmlErrorPage(status: number, detail: string): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return (
    `<!DOCTYPE html>\n<html><head><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>${detail}</p></body></html>\n`
  );
}
