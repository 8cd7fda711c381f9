import type { RenderOptions, Row, Terminal } from '../../src/output/index.js';

export const ESC = '\u001b';

/** A terminal of the given width, colour off unless asked. */
export function tty(columns = 80, color = false): Terminal {
  return { isTTY: true, columns, color };
}

/** stdout redirected to a file or a pipe. */
export function pipe(): Terminal {
  return { isTTY: false, columns: 80, color: false };
}

export function opts(
  format: RenderOptions['format'],
  terminal: Terminal = pipe(),
  extra: Partial<RenderOptions> = {},
): RenderOptions {
  return { format, terminal, ...extra };
}

/** Width of a line as a terminal shows it (test data is ASCII plus "…"). */
export function visibleWidth(line: string): number {
  return Array.from(line.replace(/\u001b\[[0-9;]*m/g, '')).length;
}

/** The lines of a rendered text, without the final empty one. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** router/access-list as the device returns it: key `name`, nested `rule` table. */
export function accessLists(): Row[] {
  return [
    {
      name: 'acl-web',
      q_origin_key: 'acl-web',
      comments: 'Allow the web servers',
      rule: [
        { id: 1, q_origin_key: 1, action: 'permit', prefix: '10.0.0.0 255.0.0.0', 'exact-match': 'disable' },
        { id: 2, q_origin_key: 2, action: 'deny', prefix: 'any', 'exact-match': 'disable' },
      ],
    },
    {
      name: 'acl-mgmt',
      q_origin_key: 'acl-mgmt',
      comments: '',
      rule: [{ id: 1, q_origin_key: 1, action: 'permit', prefix: '192.168.0.0 255.255.0.0', 'exact-match': 'enable' }],
    },
  ];
}

/** firewall.ipmacbinding/table: integer key `seq-num` that is not the first field. */
export function bindings(): Row[] {
  return [
    { ip: '10.0.0.1', 'seq-num': 1, q_origin_key: 1, mac: '00:11:22:33:44:55', name: 'srv1', status: 'enable' },
    { ip: '10.0.0.2', 'seq-num': 2, q_origin_key: 2, mac: '00:11:22:33:44:66', name: 'srv2', status: 'disable' },
  ];
}

/** log.disk/setting: a singleton. */
export function diskSetting(): Row {
  return {
    status: 'enable',
    'max-log-file-size': 20,
    'roll-schedule': 'daily',
    'upload-destination': 'ftp-server',
    uploadip: '0.0.0.0',
  };
}
