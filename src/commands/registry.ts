// Every command as data. The commander program (src/cli/program.ts), Tab completion's model
// (src/completion/model.ts) and the help examples are generated from this list. It imports no
// command: each entry's load() imports its module only when the command runs.
import { defineCommand, type CommandDef, type OptionSpec } from './spec.js';

export type { CommandDef, HelpGroup, OptionSpec, TableRule, ValueKind } from './spec.js';

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
] as const satisfies readonly OptionSpec[];

const BODY_OPTIONS = [
  { flags: '-f, --file <path>', description: "body from a JSON or YAML file ('-' for stdin)", kind: 'file' },
  { flags: '--data <json>', description: 'body as JSON', kind: 'none' },
  { flags: '--set <field=value>', description: 'set one field, typed by the table schema (repeatable)', kind: 'set', repeatable: true },
] as const satisfies readonly OptionSpec[];

const CONCURRENCY = (what: string) => ({ flags: '--concurrency <n>', description: `parallel requests for ${what} (default 4)`, kind: 'none' }) as const;

/** The run() of `cmdb schema <table>` and the other read actions of SPEC.md E1/E2. */
const readAction = (name: 'schema' | 'defaults' | 'meta' | 'revision' | 'transactions') => async () => (await import('./action.js')).readAction(name);

export const COMMANDS: readonly CommandDef[] = [
  defineCommand({
    spec: 'tables',
    description: 'print the catalogue of tables (sends nothing)',
    group: 'metadata',
    options: [
      { flags: '--group <group>', description: 'only tables of this access group', kind: 'group' },
      { flags: '--area <area>', description: 'only tables of this area (log, firewall, ...)', kind: 'area' },
    ],
    examples: ['cmdb tables --area firewall', 'cmdb tables --group fwgrp -o json'],
    load: async () => (await import('./tables.js')).run,
  }),
  defineCommand({
    spec: 'list <table>',
    description: 'list the objects of a table',
    group: 'objects',
    args: { table: 'table' },
    tables: { keyed: ['L'], singleton: ['L', 'G'] },
    options: [
      ...READ_OPTIONS,
      { flags: '--filter <expr>', description: 'field<op>value with == != =@ !@ <= < >= > (repeat: AND; commas: OR)', kind: 'filter', repeatable: true },
      { flags: '--start <n>', description: 'first entry index', kind: 'none' },
      { flags: '--count <n>', description: 'maximum number of entries (with --all: in total)', kind: 'none' },
      { flags: '--all', description: 'fetch every page' },
      { flags: '--page-size <n>', description: 'entries per request with --all (default 1000)', kind: 'none' },
      { flags: '--with-contents-hash', description: "include a checksum of each object's contents" },
      { flags: '--key <name>', description: 'filter on this property (with --pattern)', kind: 'field' },
      { flags: '--pattern <value>', description: 'value for --key', kind: 'none' },
      { flags: '--scope <scope>', description: 'global, vdom or both', kind: 'choices', choices: ['global', 'vdom', 'both'] },
      { flags: '--exclude-default-values', description: 'leave out properties that hold their default value' },
      { flags: '--no-headers', description: 'table and csv: leave out the header line' },
    ],
    examples: ["cmdb list firewall.ipmacbinding/table --filter 'status==enable'", 'cmdb list router/access-list --all -o ndjson',
      'cmdb list firewall.ipmacbinding/table -o csv --no-headers --fields ip,mac', "cmdb list firewall.ipmacbinding/table --vdom '*' --fields seq-num,ip"],
    load: async () => (await import('./list.js')).run,
  }),
  defineCommand({
    spec: 'get <table> [key]',
    description: 'read one object, or a singleton table',
    group: 'objects',
    args: { table: 'table', key: 'key' },
    tables: { keyed: ['R'], singleton: ['G', 'L'] },
    options: READ_OPTIONS,
    examples: ['cmdb get firewall.ipmacbinding/table 1', 'cmdb get log.disk/setting -o yaml'],
    load: async () => (await import('./get.js')).run,
  }),
  defineCommand({
    spec: 'create <table> [body]',
    description: 'create an object (an array body creates each element)',
    group: 'objects',
    args: { table: 'table', body: 'none' },
    tables: { keyed: ['C'], singleton: ['C'] },
    options: [...BODY_OPTIONS, CONCURRENCY('an array body')],
    examples: ['cmdb create firewall.ipmacbinding/table --set seq-num=7 --set ip=10.0.0.7 --set mac=00:11:22:33:44:55', 'cmdb create dlp/filepattern -f patterns.yaml'],
    load: async () => (await import('./create.js')).run,
  }),
  defineCommand({
    spec: 'clone <table> <key> <new-key>',
    description: 'copy an object under a new key',
    group: 'objects',
    args: { table: 'table', key: 'key', 'new-key': 'none' },
    tables: { keyed: ['C'], singleton: [] },
    examples: ['cmdb clone firewall.ipmacbinding/table 1 9'],
    load: async () => (await import('./clone.js')).run,
  }),
  defineCommand({
    spec: 'update <table> [args...]',
    description: 'change fields of an object ([key] [body]), or of a singleton ([body])',
    group: 'objects',
    // `update <table> [args...]` is `[key] [body]`: only the first word is a key.
    args: { table: 'table', args: 'key' },
    tables: { keyed: ['U'], singleton: ['P'] },
    options: BODY_OPTIONS,
    examples: ['cmdb update firewall.ipmacbinding/table 1 --set status=disable', "cmdb update log.disk/setting --set status=enable"],
    load: async () => (await import('./update.js')).run,
  }),
  defineCommand({
    spec: 'move <table> <key>',
    description: 'move an object before or after another',
    group: 'objects',
    args: { table: 'table', key: 'key' },
    tables: { keyed: ['U'], singleton: [] },
    options: [
      { flags: '--before <key>', description: 'move in front of this object', kind: 'key' },
      { flags: '--after <key>', description: 'move behind this object', kind: 'key' },
    ],
    examples: ['cmdb move router/access-list web --before mail'],
    load: async () => (await import('./move.js')).run,
  }),
  defineCommand({
    spec: 'delete <table> <keys...>',
    description: 'delete objects by key',
    group: 'objects',
    args: { table: 'table', keys: 'keys' },
    tables: { keyed: ['D'], singleton: [] },
    options: [CONCURRENCY('several keys')],
    examples: ['cmdb delete firewall.ipmacbinding/table 7 8 9'],
    load: async () => (await import('./delete.js')).run,
  }),
  defineCommand({
    spec: 'schema <table>',
    description: 'print the CLI schema of a table (action=schema)',
    group: 'metadata',
    args: { table: 'table' },
    examples: ['cmdb schema firewall.ipmacbinding/table'],
    load: readAction('schema'),
  }),
  defineCommand({
    spec: 'defaults <table>',
    description: 'print the default values of a table (action=default)',
    group: 'metadata',
    args: { table: 'table' },
    examples: ['cmdb defaults log.disk/setting'],
    load: readAction('defaults'),
  }),
  defineCommand({
    spec: 'meta <table>',
    description: 'print the meta data of a table (action=meta)',
    group: 'metadata',
    args: { table: 'table' },
    examples: ['cmdb meta firewall.ipmacbinding/table'],
    load: readAction('meta'),
  }),
  defineCommand({
    spec: 'revision <table> [key]',
    description: 'print the CMDB revision of a table (action=revision)',
    group: 'metadata',
    args: { table: 'table', key: 'key' },
    examples: ['cmdb revision firewall.ipmacbinding/table'],
    load: readAction('revision'),
  }),
  defineCommand({
    spec: 'transactions <table> [key]',
    description: 'list configuration transactions (action=transaction-list)',
    group: 'metadata',
    args: { table: 'table', key: 'key' },
    examples: ['cmdb transactions firewall.ipmacbinding/table'],
    load: readAction('transactions'),
  }),
  defineCommand({
    spec: 'completion <shell>',
    description: 'print the completion script for bash, zsh or fish',
    group: 'tools',
    args: { shell: 'shell' },
    examples: ['source <(cmdb completion bash)'],
    load: async () => (await import('./completion.js')).run,
  }),
  defineCommand({
    spec: 'login',
    description: 'check a credential against a device and save it (keychain) with a device profile',
    group: 'devices and login',
    options: [
      { flags: '--token-stdin', description: 'read an API token from stdin' },
      { flags: '--username <name>', description: 'log in as this administrator (password prompted, or --password-stdin)', kind: 'none' },
      { flags: '--password-stdin', description: 'read the password from stdin' },
      { flags: '--token-code <code>', description: 'second-factor code, when the device asks for one', kind: 'none' },
      { flags: '--accept-disclaimer', description: "accept the device's login banner" },
      { flags: '--fingerprint <sha256>', description: "pin the device's certificate (SHA-256, colons optional)", kind: 'none' },
      { flags: '--insecure-storage', description: 'without a keychain: keep the secret in credentials.yaml (plain text, mode 0600)' },
      { flags: '--prefix <path>', description: 'API prefix of the device (default /api/v2/cmdb)', kind: 'none' },
    ],
    examples: ['printenv FW_TOKEN | cmdb login --host https://fw.example:8443 --token-stdin', 'cmdb login -d lab --host fw.lab --username admin'],
    load: async () => (await import('./login.js')).run,
  }),
  defineCommand({
    spec: 'logout',
    description: 'end the device session and delete the saved session',
    group: 'devices and login',
    options: [{ flags: '--forget', description: 'also delete the saved credential (API token or password)' }],
    examples: ['cmdb logout -d lab --forget'],
    load: async () => (await import('./logout.js')).run,
  }),
  defineCommand({
    spec: 'status',
    parent: 'auth',
    description: 'device, host, auth kind, where the secret is stored, whether it works',
    group: 'devices and login',
    examples: ['cmdb auth status -d lab'],
    load: async () => (await import('./auth.js')).run,
  }),
  defineCommand({
    spec: 'reset',
    parent: 'demo',
    description: 'forget the changes made with --demo',
    group: 'tools',
    load: async () => (await import('./demo.js')).run,
  }),
  defineCommand({
    spec: 'list',
    parent: 'device',
    description: 'list the saved devices',
    group: 'devices and login',
    load: async () => (await import('./device.js')).list,
  }),
  defineCommand({
    spec: 'show [name]',
    parent: 'device',
    description: 'show the settings of a device (default: the one in use)',
    group: 'devices and login',
    args: { name: 'device' },
    load: async () => (await import('./device.js')).show,
  }),
  defineCommand({
    spec: 'use <name>',
    parent: 'device',
    description: 'make a device the default',
    group: 'devices and login',
    args: { name: 'device' },
    load: async () => (await import('./device.js')).use,
  }),
  defineCommand({
    spec: 'remove <name>',
    parent: 'device',
    description: 'delete a device, its saved credential and session',
    group: 'devices and login',
    args: { name: 'device' },
    load: async () => (await import('./device.js')).remove,
  }),
  defineCommand({
    spec: 'emulator',
    description: 'run the local emulated device in the foreground (--host sets where it listens)',
    group: 'tools',
    options: [
      { flags: '--port <n>', description: 'port (0 picks a free one; default: the one the --state file keeps, else 0)', kind: 'none' },
      { flags: '--tls', description: 'serve HTTPS with a self-signed certificate generated at start' },
      { flags: '--state <file>', description: 'persist the state in this file across restarts', kind: 'file' },
      { flags: '--seed <seed>', description: 'initial data when there is no state', kind: 'choices', choices: ['demo', 'empty'], default: 'demo' },
      { flags: '--vdoms <list>', description: 'VDOM names, the management VDOM first', kind: 'none', default: 'root,dmz' },
      { flags: '--config <file>', description: 'administrators, API tokens with access profiles, and limits (YAML or JSON)', kind: 'file' },
    ],
    examples: ['cmdb emulator --port 8443 --tls --state lab.json'],
    load: async () => (await import('./emulator.js')).run,
  }),
];
