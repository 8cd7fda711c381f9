// Every command as data. The commander program (buildProgram in src/cli/main.ts), Tab completion's model
// (src/completion/model.ts) and the help examples are generated from this list. It imports no
// command: each entry's load() imports its module only when the command runs.
import type { OptionDef } from '../grammar/types.js';
import { defineCommand, type CommandDef } from './define.js';

export type { CommandDef } from './define.js';

/** Command groups: a name that only holds subcommands (`cmdb device list`). */
export const PARENTS: Readonly<Record<string, string>> = {
  auth: 'credentials of the device',
  demo: 'the built-in emulated device used by --demo',
  device: 'saved device profiles',
};

const READ_OPTIONS = [
  { flags: '--datasource', description: 'include datasource information for linked objects' },
  { flags: '--with-meta', description: 'include meta information (q_ref, q_type...) per object' },
  { flags: '--skip', description: 'apply the CLI skip operator to hide skipped properties' },
  { flags: '--fields <a,b>', description: 'only these fields (sent as format=a|b)', kind: 'fields' },
] as const satisfies readonly OptionDef[];

/** What a table or csv of objects shows, chosen here and never sent (CLI.md, "Output"). */
const COLUMN_OPTIONS = [
  { flags: '--wide', description: 'table: every field, whole (none left out or cut to fit the terminal)' },
  {
    flags: '--columns <a,b>',
    description: 'table and csv: exactly these columns, in this order (chosen here; --fields asks the device)',
    kind: 'fields',
  },
] as const satisfies readonly OptionDef[];

/** Rows of fixed columns (`refs`, `unused`): the same choices as a table's objects. */
const ROWS_OPTIONS = [
  ...COLUMN_OPTIONS,
  { flags: '--no-headers', description: 'table and csv: leave out the header line' },
] as const satisfies readonly OptionDef[];

const BODY_OPTIONS = [
  { flags: '-f, --file <path>', description: "body from a JSON or YAML file ('-' for stdin)", kind: 'file' },
  { flags: '--data <json>', description: 'body as JSON', kind: 'none' },
  {
    flags: '--set <field=value>',
    description: 'set one field, typed by the table schema (repeatable)',
    kind: 'set',
    repeatable: true,
  },
] as const satisfies readonly OptionDef[];

/** Every write command: --dry-run shows the requests instead of sending them; --yes answers its question. */
const WRITE_OPTIONS = [
  { flags: '--dry-run', description: 'print the requests that would be sent (reads still happen); send no write' },
  { flags: '-y, --yes', description: 'do not ask for confirmation on a terminal' },
] as const satisfies readonly OptionDef[];

/** Objects read: every format, the device's own syntax (`cli`) included. */
const OBJECTS_OUTPUT = { what: 'objects', formats: ['table', 'json', 'yaml', 'ndjson', 'csv', 'cli'] } as const;

/** What diff and apply compare and send (CLI.md "Configuration as code"). */
const PLAN_OPTIONS = [
  {
    flags: '--with-uuid',
    description: 'compare and send uuid fields also when the document comes from another device (or --from)',
  },
  { flags: '--ignore-fields <a,b>', description: 'leave these fields out of comparisons and writes', kind: 'none' },
  {
    flags: '--set-secrets',
    description: "send the document's plain-text secrets as updates (otherwise compared only as set or not)",
  },
  {
    flags: '--concurrency <n>',
    description: "requests at once: the reads that check references, and apply's writes (default 8)",
    kind: 'none',
  },
] as const satisfies readonly OptionDef[];

/** Readers of the device's own syntax (`.conf`): a block of a table the device does not know refuses the file. */
const STRICT_OPTION = {
  flags: '--strict',
  description: '.conf: a block for a table this device does not know is an error (exit 2), not a note',
} as const satisfies OptionDef;

/** A plan: lines for people, or a document. */
const PLAN_OUTPUT = { what: 'a plan', formats: ['table', 'json', 'yaml'] } as const;

const CONCURRENCY = (what: string) =>
  ({ flags: '--concurrency <n>', description: `parallel requests for ${what} (default 4)`, kind: 'none' }) as const;

/** The run() of `cmdb schema <table>` and the other read actions of SPEC.md E1/E2. */
const readAction = (name: 'schema' | 'defaults' | 'meta' | 'revision' | 'transactions') => async () =>
  (await import('./action.js')).readAction(name);

export const COMMANDS: readonly CommandDef[] = [
  defineCommand({
    signature: 'tables',
    description: 'print every table of the catalogue, or with -d of that device (sends nothing but --refresh)',
    group: 'metadata',
    options: [
      { flags: '--group <group>', description: 'only tables of this access group', kind: 'group' },
      { flags: '--area <area>', description: 'only tables of this area (log, firewall, ...)', kind: 'area' },
      { flags: '--spec', description: 'only the 42 core tables of the API specification, with its operations' },
      {
        flags: '--refresh',
        description: "with -d: read the device's schema again (a device of another release than 6.4.14)",
      },
      {
        flags: '--fields <a,b>',
        description: 'only these columns: path, kind, key, keyType, operations, group, spec',
        kind: 'none',
      },
    ],
    examples: [
      'cmdb tables --area firewall',
      'cmdb tables --spec --group fwgrp -o json',
      'cmdb tables -d fw72 --refresh',
    ],
    load: async () => (await import('./tables.js')).run,
  }),
  defineCommand({
    signature: 'list <table>',
    devices: 'each',
    output: OBJECTS_OUTPUT,
    description: 'list the objects of a table',
    group: 'objects',
    args: { table: 'table' },
    tables: { keyed: ['L'], singleton: ['L', 'G'] },
    options: [
      ...READ_OPTIONS,
      {
        flags: '--filter <expr>',
        description: 'field<op>value with == != =@ !@ <= < >= > (repeat: AND; commas: OR)',
        kind: 'filter',
        repeatable: true,
      },
      { flags: '--start <n>', description: 'first entry index', kind: 'none' },
      { flags: '--count <n>', description: 'maximum number of entries (with --all: in total)', kind: 'none' },
      { flags: '--all', description: 'fetch every page' },
      { flags: '--page-size <n>', description: 'entries per request with --all (default 1000)', kind: 'none' },
      { flags: '--with-contents-hash', description: "include a checksum of each object's contents" },
      { flags: '--key <name>', description: 'filter on this property (with --pattern)', kind: 'field' },
      { flags: '--pattern <value>', description: 'value for --key', kind: 'none' },
      {
        flags: '--scope <scope>',
        description: 'global, vdom or both',
        kind: 'choices',
        choices: ['global', 'vdom', 'both'],
      },
      { flags: '--exclude-default-values', description: 'leave out properties that hold their default value' },
      { flags: '--no-headers', description: 'table and csv: leave out the header line' },
      ...COLUMN_OPTIONS,
    ],
    examples: [
      'cmdb list firewall/policy --wide',
      'cmdb list firewall/address --columns name,subnet,comment -o csv',
      "cmdb list firewall/address --filter 'type==ipmask' -o json",
      "cmdb list firewall/addrgrp --vdom '*' -o cli --exclude-default-values",
    ],
    load: async () => (await import('./list.js')).run,
  }),
  defineCommand({
    signature: 'get <table> [keys...]',
    devices: 'each',
    output: OBJECTS_OUTPUT,
    description: 'read objects by key (several keys: a list), or a singleton table',
    group: 'objects',
    args: { table: 'table', keys: 'keys' },
    tables: { keyed: ['R'], singleton: ['G', 'L'] },
    options: [...READ_OPTIONS, ...COLUMN_OPTIONS],
    examples: [
      'cmdb get firewall/policy 1',
      'cmdb get firewall/address lan-net dmz-net -o json',
      'cmdb get firewall/policy 1 -o cli',
      'cmdb get system/interface port1 --wide',
    ],
    load: async () => (await import('./get.js')).run,
  }),
  defineCommand({
    signature: 'create <table> [body]',
    writes: true,
    devices: 'each',
    description: 'create an object (an array body creates each element)',
    group: 'objects',
    args: { table: 'table', body: 'none' },
    tables: { keyed: ['C'], singleton: ['C'] },
    options: [
      {
        ...BODY_OPTIONS[0],
        description:
          "body from a JSON, YAML or .conf file (the device's syntax: its blocks of the table; '-' for stdin)",
      },
      ...BODY_OPTIONS.slice(1),
      CONCURRENCY('an array body'),
      { flags: '--atomic', description: 'all or nothing: every element in one device transaction' },
      STRICT_OPTION,
      ...WRITE_OPTIONS,
    ],
    examples: [
      'cmdb create firewall/address --set name=lab-net --set subnet=10.20.0.0/24',
      'cmdb create firewall/address -f addresses.yaml',
      'cmdb create firewall/address -f snippet.conf',
      'cmdb create router/static --set dst=10.30.0.0/16 --set gateway=10.10.10.254 --set device=port4',
    ],
    load: async () => (await import('./create.js')).run,
  }),
  defineCommand({
    signature: 'clone <table> <key> <new-key>',
    writes: true,
    devices: 'each',
    description: 'copy an object under a new key',
    group: 'objects',
    args: { table: 'table', key: 'key', 'new-key': 'none' },
    tables: { keyed: ['C'], singleton: [] },
    options: WRITE_OPTIONS,
    examples: ['cmdb clone firewall/address lan-net lan-net-copy', 'cmdb clone firewall/policy 1 10 --dry-run'],
    load: async () => (await import('./clone.js')).run,
  }),
  defineCommand({
    signature: 'rename <table> <key> <new-key>',
    writes: true,
    devices: 'each',
    description: 'give an object a new name; the device makes the objects that name it follow',
    group: 'objects',
    args: { table: 'table', key: 'key', 'new-key': 'none' },
    tables: { keyed: ['U'], singleton: [] },
    options: WRITE_OPTIONS,
    examples: [
      'cmdb rename firewall/address dmz-net dmz-lan',
      'cmdb rename firewall/addrgrp published public-servers --dry-run',
    ],
    load: async () => (await import('./rename.js')).run,
  }),
  defineCommand({
    signature: 'update <table> [args...]',
    writes: true,
    devices: 'each',
    usage: 'update <table> [key] [body]',
    notes: [
      'A keyed table takes the key of the object; a singleton takes none. The body (inline JSON, -f, --data, ' +
        '--set) holds only the fields to change.',
    ],
    description: 'change fields of an object ([key] [body]), or of a singleton ([body])',
    group: 'objects',
    // `update <table> [args...]` is `[key] [body]`: only the first word is a key.
    args: { table: 'table', args: 'key' },
    tables: { keyed: ['U'], singleton: ['P'] },
    options: [...BODY_OPTIONS, ...WRITE_OPTIONS],
    examples: [
      'cmdb update firewall/policy 4 --set status=disable',
      "cmdb update firewall/addrgrp internal-nets --set 'member+=dmz-net'",
      'cmdb update log.disk/setting --set status=enable --set roll-day=sunday',
    ],
    load: async () => (await import('./update.js')).run,
  }),
  defineCommand({
    signature: 'move <table> <key>',
    writes: true,
    devices: 'each',
    usage: 'move <table> <key> (--before <key> | --after <key> | --top | --bottom)',
    notes: [
      'Give exactly one of --before, --after, --top or --bottom: the object the moved one goes in front of, or ' +
        'behind, or the first or last place.',
    ],
    description: 'move an object before or after another, or to the top or bottom',
    group: 'objects',
    args: { table: 'table', key: 'key' },
    tables: { keyed: ['U'], singleton: [] },
    options: [
      { flags: '--before <key>', description: 'move in front of this object', kind: 'key' },
      { flags: '--after <key>', description: 'move behind this object', kind: 'key' },
      { flags: '--top', description: 'move in front of the first object' },
      { flags: '--bottom', description: 'move behind the last object' },
      ...WRITE_OPTIONS,
    ],
    examples: [
      'cmdb move firewall/policy 4 --before 1',
      'cmdb move firewall/policy 3 --after 5',
      'cmdb move dlp/filepattern 1 --bottom',
    ],
    load: async () => (await import('./move.js')).run,
  }),
  defineCommand({
    signature: 'edit <table> [key]',
    // One editor session changes one device's object.
    devices: 'one',
    description: 'change an object in your editor ($VISUAL, $EDITOR, vi); sends only the changed fields',
    group: 'objects',
    args: { table: 'table', key: 'key' },
    tables: { keyed: ['U'], singleton: ['P'] },
    options: WRITE_OPTIONS,
    examples: ['cmdb edit firewall/policy 1', 'cmdb edit log.disk/setting --vdom dmz'],
    load: async () => (await import('./edit.js')).run,
  }),
  defineCommand({
    signature: 'delete <table> [keys...]',
    writes: true,
    devices: 'each',
    usage: 'delete <table> <key>...',
    description: 'delete objects by key',
    group: 'objects',
    args: { table: 'table', keys: 'keys' },
    tables: { keyed: ['D'], singleton: [] },
    options: [
      CONCURRENCY('several keys'),
      { flags: '--atomic', description: 'all or nothing: every delete in one device transaction' },
      ...WRITE_OPTIONS,
    ],
    examples: [
      'cmdb delete firewall/address dhcp-pool',
      'cmdb delete firewall/policy 4 5 --concurrency 2',
      'cmdb delete firewall.ipmacbinding/table 1 --dry-run',
    ],
    load: async () => (await import('./delete.js')).run,
  }),
  defineCommand({
    signature: 'refs <table> <key>',
    devices: 'each',
    output: { what: 'references', formats: ['table', 'json', 'yaml', 'ndjson', 'csv'] },
    description: "where an object is used: each object and field naming it (the device's usage query, else reads)",
    group: 'objects',
    args: { table: 'table', key: 'key' },
    tables: { keyed: ['R'], singleton: [] },
    options: ROWS_OPTIONS,
    examples: [
      'cmdb refs firewall/address lan-net',
      'cmdb refs system/interface port1 -o json',
      "cmdb refs firewall.schedule/recurring always --vdom '*'",
    ],
    load: async () => (await import('./refs.js')).run,
  }),
  defineCommand({
    signature: 'unused [tables...]',
    writes: 'delete',
    devices: 'each',
    output: { what: 'objects', formats: ['table', 'json', 'yaml', 'ndjson', 'csv'] },
    description:
      'objects nothing names (default: addresses, services, schedules, pools, VIPs, security profiles); --delete them',
    group: 'objects',
    args: { tables: 'table' },
    tables: { keyed: ['L'], singleton: [] },
    options: [
      { flags: '--delete', description: 'delete them, a group before its members, after showing them and asking' },
      ...ROWS_OPTIONS,
      ...WRITE_OPTIONS,
    ],
    examples: [
      'cmdb unused firewall/address',
      'cmdb unused -o json',
      'cmdb unused firewall/address firewall/addrgrp --delete --dry-run',
    ],
    load: async () => (await import('./unused.js')).run,
  }),
  defineCommand({
    signature: 'export [tables...]',
    devices: 'each',
    output: { what: 'a config document', formats: ['yaml', 'json', 'cli', 'table'], default: 'yaml' },
    description:
      'print the config document of the tables (default: every table the device has that can be read as a whole)',
    group: 'configuration as code',
    args: { tables: 'table' },
    tables: { keyed: ['L'], singleton: ['G'] },
    options: [
      {
        flags: '--exclude-default-values',
        description: 'leave out fields that hold their default value (the document says so: defaults: excluded)',
      },
      {
        flags: '--dir <dir>',
        description: 'write DIR/<device>.yaml (.conf with -o cli) instead of printing',
        kind: 'file',
      },
      {
        flags: '--spec',
        description: 'only the 42 core tables of the API specification (default: every table the device has)',
      },
      { flags: '--concurrency <n>', description: 'tables read at once (default 8)', kind: 'none' },
      ...COLUMN_OPTIONS,
    ],
    examples: [
      "cmdb export --vdom '*' > fw1.yaml",
      'cmdb export firewall/address firewall/policy -o table',
      "cmdb -d fw1 export --vdom '*' --dir configs/",
      'cmdb export firewall/address firewall/policy -o cli --exclude-default-values',
    ],
    load: async () => (await import('./export.js')).run,
  }),
  defineCommand({
    signature: 'diff [tables...]',
    devices: 'each',
    output: PLAN_OUTPUT,
    description:
      'show what apply would change to make the device match a document (reads only; exit 10 when they differ)',
    group: 'configuration as code',
    args: { tables: 'table' },
    options: [
      {
        flags: '-f, --file <path>',
        description: "the desired config document: YAML, JSON or the device's own syntax ('-' for stdin)",
        kind: 'file',
      },
      {
        flags: '--from <device>',
        description: "another saved device's configuration is the desired one",
        kind: 'device',
      },
      {
        flags: '--dir <dir>',
        description: 'each device against DIR/<device>.yaml or .conf (as export --dir writes them)',
        kind: 'file',
      },
      {
        flags: '--prune',
        description: 'also list objects of the keyed tables the document names that it does not list',
      },
      ...PLAN_OPTIONS,
      STRICT_OPTION,
    ],
    examples: [
      'cmdb diff -f fw1.yaml',
      'cmdb diff -f fw1.yaml --prune -o json',
      'cmdb diff -f fw1.yaml --ignore-fields comment,uuid',
      'cmdb diff -f snippet.conf --strict   # exit 10',
    ],
    load: async () => (await import('./diff.js')).run,
  }),
  defineCommand({
    signature: 'apply [tables...]',
    writes: true,
    asks: 'plan',
    devices: 'each',
    output: PLAN_OUTPUT,
    description: 'make the device match a config document: create, update only changed fields, delete with --prune',
    group: 'configuration as code',
    args: { tables: 'table' },
    options: [
      {
        flags: '-f, --file <path>',
        description: "the desired config document: YAML, JSON or the device's own syntax ('-' for stdin)",
        kind: 'file',
      },
      {
        flags: '--from <device>',
        description: "make the device match another saved device's configuration",
        kind: 'device',
      },
      {
        flags: '--dir <dir>',
        description: 'each device from DIR/<device>.yaml or .conf (as export --dir writes them)',
        kind: 'file',
      },
      {
        flags: '--prune',
        description:
          'delete objects of the keyed tables the document names that it does not list (never factory objects)',
      },
      ...PLAN_OPTIONS,
      STRICT_OPTION,
      { flags: '--atomic', description: "all or nothing: each VDOM's writes in one device transaction" },
      {
        flags: '--dry-run',
        description: 'print the plan and the exact requests; write nothing (exit 10 when there is something to do)',
      },
      { flags: '-y, --yes', description: 'do not ask for confirmation on a terminal' },
    ],
    examples: [
      'cmdb apply -f fw1.yaml --dry-run',
      'cmdb apply -f fw1.yaml --prune --atomic --yes',
      'cmdb apply -f snippet.conf --yes',
      'cmdb apply -f fw1.yaml --concurrency 16 --yes',
    ],
    load: async () => (await import('./apply.js')).run,
  }),
  defineCommand({
    signature: 'schema [table]',
    devices: 'each',
    usage: 'schema (<table> | --all)',
    description: "print the device's schema of a table (action=schema), or of every table (--all)",
    group: 'metadata',
    args: { table: 'table' },
    options: [
      {
        flags: '--all',
        description: "the whole tree, every table's schema at once (--raw: the answer untouched, to save)",
      },
      { flags: '--refresh', description: 'also rewrite the cached schema of a device of another release than 6.4.14' },
    ],
    examples: [
      'cmdb schema firewall/policy',
      'cmdb schema log.disk/setting -o json',
      'cmdb schema --all --raw > fw-7.2.json',
    ],
    load: async () => (await import('./action.js')).schema,
  }),
  defineCommand({
    signature: 'defaults <table>',
    devices: 'each',
    description: 'print the default values of a table (action=default)',
    group: 'metadata',
    args: { table: 'table' },
    examples: ['cmdb defaults log.disk/setting', 'cmdb defaults firewall/address -o yaml'],
    load: readAction('defaults'),
  }),
  defineCommand({
    signature: 'meta <table>',
    devices: 'each',
    description: 'print the meta data of a table (action=meta)',
    group: 'metadata',
    args: { table: 'table' },
    examples: ['cmdb meta firewall/policy', 'cmdb meta log.disk/setting -o json'],
    load: readAction('meta'),
  }),
  defineCommand({
    signature: 'revision <table> [key]',
    devices: 'each',
    description: 'print the CMDB revision of a table (action=revision)',
    group: 'metadata',
    args: { table: 'table', key: 'key' },
    examples: ['cmdb revision firewall/policy', 'cmdb revision firewall/address lan-net'],
    load: readAction('revision'),
  }),
  defineCommand({
    signature: 'transactions <table> [key]',
    devices: 'each',
    description: 'list configuration transactions (action=transaction-list)',
    group: 'metadata',
    args: { table: 'table', key: 'key' },
    examples: ['cmdb transactions firewall/policy', 'cmdb transactions firewall/address -o json'],
    load: readAction('transactions'),
  }),
  defineCommand({
    signature: 'api <path>',
    devices: 'each',
    description: "send one request to any path under /api/v2/ (monitor, log, cmdb...) with the device's credentials",
    group: 'tools',
    args: { path: 'apipath' },
    notes: [
      'The path is relative to /api/v2/ (monitor/system/status) or starts with it; a scheme and host, or a path ' +
        'outside /api/v2/, is refused. -X defaults to GET, or POST with a body. Prints the results in the chosen ' +
        'format (--raw: the whole answer); an answer that is not JSON (a configuration backup) goes to stdout ' +
        'byte for byte.',
    ],
    options: [
      {
        flags: '-X, --method <method>',
        description: 'GET, POST, PUT or DELETE (default GET, or POST with a body)',
        kind: 'choices',
        choices: ['GET', 'POST', 'PUT', 'DELETE'],
      },
      {
        flags: '--query <name=value>',
        description: 'add a query parameter (repeatable)',
        kind: 'none',
        repeatable: true,
      },
      { flags: '-f, --file <path>', description: "body from a JSON or YAML file ('-' for stdin)", kind: 'file' },
      { flags: '--data <json>', description: 'body as JSON (or YAML)', kind: 'none' },
      { flags: '--all', description: 'a list: fetch every page (start and count)' },
      { flags: '--page-size <n>', description: 'entries per request with --all (default 1000)', kind: 'none' },
    ],
    examples: [
      'cmdb api monitor/system/status',
      "cmdb api cmdb/firewall/address --query 'filter=type==fqdn' -o yaml",
      'cmdb api cmdb/dlp/filepattern -X POST --data \'{"id":42,"name":"api-made"}\'',
    ],
    load: async () => (await import('./api.js')).run,
  }),
  defineCommand({
    signature: 'backup',
    devices: 'each',
    description: "save the device's full configuration text (atomically, mode 0600), or print it",
    group: 'tools',
    notes: [
      'Without --file or --dir the configuration goes to stdout. With several devices (-d a,b) give --dir: each ' +
        'is written to DIR/<device>.conf.',
    ],
    options: [
      {
        flags: '--scope <scope>',
        description: 'global (every VDOM, the default) or vdom (the one --vdom names)',
        kind: 'choices',
        choices: ['global', 'vdom'],
      },
      { flags: '--file <path>', description: 'write the configuration to this file', kind: 'file' },
      { flags: '--dir <dir>', description: 'write DIR/<device>.conf', kind: 'file' },
    ],
    examples: [
      'cmdb backup --file fw1.conf',
      'cmdb backup --scope vdom --vdom dmz > dmz.conf',
      "cmdb -d 'branch-*' backup --dir backups/",
    ],
    load: async () => (await import('./backup.js')).run,
  }),
  defineCommand({
    signature: 'status',
    devices: 'each',
    description: 'hostname, serial, release, build and model of the device (one row per device)',
    group: 'tools',
    examples: ['cmdb status', 'cmdb -d fw1,fw2 status -o json'],
    load: async () => (await import('./status.js')).run,
  }),
  defineCommand({
    signature: 'completion <shell>',
    description: 'print the completion script for bash, zsh or fish',
    group: 'tools',
    args: { shell: 'shell' },
    examples: [
      'source <(cmdb completion bash)',
      'cmdb completion zsh > ~/.zsh/completions/_cmdb',
      'cmdb completion fish > ~/.config/fish/completions/cmdb.fish',
    ],
    load: async () => (await import('./completion.js')).run,
  }),
  defineCommand({
    signature: 'login',
    devices: 'one',
    usage: 'login --host <url> (--token-stdin | --username <name>)',
    notes: [
      'Needs --host (or CMDB_HOST; or -d of a saved device) and one of --token-stdin (an API token on stdin) or ' +
        '--username (the password prompted, or read with --password-stdin). The secret goes to the system ' +
        'keychain, never into argv or the profile.',
    ],
    description: 'check a credential against a device and save it (keychain) with a device profile',
    group: 'devices and login',
    options: [
      { flags: '--token-stdin', description: 'read an API token from stdin' },
      {
        flags: '--username <name>',
        description: 'log in as this administrator (password prompted, or --password-stdin)',
        kind: 'none',
      },
      { flags: '--password-stdin', description: 'read the password from stdin' },
      { flags: '--token-code <code>', description: 'second-factor code, when the device asks for one', kind: 'none' },
      { flags: '--accept-disclaimer', description: "accept the device's login banner" },
      {
        flags: '--fingerprint <sha256>',
        description: "pin the device's certificate (SHA-256, colons optional)",
        kind: 'none',
      },
      {
        flags: '--insecure-storage',
        description: 'without a keychain: keep the secret in credentials.yaml (plain text, mode 0600)',
      },
      { flags: '--prefix <path>', description: 'API prefix of the device (default /api/v2/cmdb)', kind: 'none' },
    ],
    examples: [
      'printenv FW_TOKEN | cmdb login --host https://fw.example:8443 --token-stdin',
      'cmdb login -d lab --host fw.lab --username admin',
    ],
    load: async () => (await import('./login.js')).run,
  }),
  defineCommand({
    signature: 'logout',
    devices: 'each',
    description: 'end the device session and delete the saved session',
    group: 'devices and login',
    options: [{ flags: '--forget', description: 'also delete the saved credential (API token or password)' }],
    examples: ['cmdb logout -d lab', 'cmdb logout -d lab --forget'],
    load: async () => (await import('./logout.js')).run,
  }),
  defineCommand({
    signature: 'status',
    devices: 'each',
    parent: 'auth',
    description: 'device, host, auth kind, where the secret is stored, whether it works',
    group: 'devices and login',
    examples: ['cmdb auth status', 'cmdb auth status -d lab -o json'],
    load: async () => (await import('./auth.js')).run,
  }),
  defineCommand({
    signature: 'reset',
    parent: 'demo',
    description: 'forget the changes made with --demo',
    group: 'tools',
    examples: ['cmdb demo reset', 'cmdb demo reset && cmdb --demo list firewall/policy'],
    load: async () => (await import('./demo.js')).run,
  }),
  defineCommand({
    signature: 'list',
    parent: 'device',
    description: 'list the saved devices',
    group: 'devices and login',
    examples: ['cmdb device list', 'cmdb device list -o json'],
    load: async () => (await import('./device.js')).list,
  }),
  defineCommand({
    signature: 'show [name]',
    devices: 'one',
    parent: 'device',
    description: 'show the settings of a device (default: the one in use)',
    group: 'devices and login',
    args: { name: 'device' },
    examples: ['cmdb device show', 'cmdb device show lab -o yaml'],
    load: async () => (await import('./device.js')).show,
  }),
  defineCommand({
    signature: 'use <name>',
    parent: 'device',
    description: 'make a device the default',
    group: 'devices and login',
    args: { name: 'device' },
    examples: ['cmdb device use lab', 'cmdb device use fw1.example:8443'],
    load: async () => (await import('./device.js')).use,
  }),
  defineCommand({
    signature: 'set <name> <settings...>',
    parent: 'device',
    description:
      'change settings of a saved device without logging in again: vdom, timeout, ca-file, prefix, plain-text-ok',
    group: 'devices and login',
    args: { name: 'device', settings: 'none' },
    examples: ['cmdb device set branch-1 vdom=dmz timeout=10', 'cmdb device set lab ca-file=./lab-ca.pem prefix='],
    load: async () => (await import('./device.js')).set,
  }),
  defineCommand({
    signature: 'remove <name>',
    parent: 'device',
    description: 'delete a device, its saved credential and session',
    group: 'devices and login',
    args: { name: 'device' },
    options: [{ flags: '-y, --yes', description: 'do not ask for confirmation on a terminal' }],
    examples: ['cmdb device remove lab', 'cmdb device remove old-fw'],
    load: async () => (await import('./device.js')).remove,
  }),
  defineCommand({
    signature: 'emulator',
    description: 'run the local emulated device in the foreground (--host sets where it listens)',
    group: 'tools',
    options: [
      {
        flags: '--port <n>',
        description: 'port (0 picks a free one; default: the one the --state file keeps, else 0)',
        kind: 'none',
      },
      { flags: '--tls', description: 'serve HTTPS with a self-signed certificate generated at start' },
      { flags: '--state <file>', description: 'persist the state in this file across restarts', kind: 'file' },
      {
        flags: '--seed <seed>',
        description: 'initial data when there is no state',
        kind: 'choices',
        choices: ['demo', 'empty'],
        default: 'demo',
      },
      {
        flags: '--vdoms <list>',
        description: 'VDOM names, the management VDOM first (default: those the --state file keeps, else root,dmz)',
        kind: 'none',
      },
      {
        flags: '--config <file>',
        description: 'administrators, API tokens with access profiles, and limits (YAML or JSON)',
        kind: 'file',
      },
      {
        flags: '--schema <file>',
        description: "emulate another release: its tables from a saved 'cmdb schema --all --raw' answer",
        kind: 'file',
      },
      {
        flags: '--serial <serial>',
        description: 'serial number the device reports (default: FGVMEMU and the port)',
        kind: 'none',
      },
      {
        flags: '--hostname <name>',
        description: 'host name the device reports (default: cmdb-emulator-<port>)',
        kind: 'none',
      },
    ],
    examples: [
      'cmdb emulator',
      'cmdb emulator --port 8443 --tls --state lab.json',
      'cmdb emulator -o json --seed empty --vdoms root,dmz,lab',
      'cmdb emulator --schema fw-7.2.json --seed empty',
    ],
    load: async () => (await import('./emulator.js')).run,
  }),
];
