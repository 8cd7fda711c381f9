import type { OperationCode } from '../catalogue/index.js';

/** What a value is, and so where its candidates come from. */
export type ValueKind =
  | 'none' // free text: nothing to offer
  | 'file' // the shell's own file completion
  | 'choices' // the choices commander declares for the option or argument
  | 'output' // output formats
  | 'group' // access groups of the catalogue
  | 'area' // areas of the catalogue
  | 'device' // saved device profiles
  | 'vdom' // VDOM names, comma-separated
  | 'shell' // bash, zsh, fish
  | 'table' // table paths, filtered by what the command does to a table
  | 'key' // keys of the table, read from the device
  | 'keys' // several keys (each word of a variadic argument)
  | 'field' // one field name of the table
  | 'fields' // comma-separated field names of the table
  | 'filter' // field<op>value, with enum values after the operator
  | 'set'; // field=value, with enum values after `=`

/**
 * The kind of each option's value, by long flag (the same flag means the same thing on every command).
 * A test fails when the program has a value-taking option missing here, so a new one needs a decision.
 */
export const OPTION_KINDS: Record<string, ValueKind> = {
  '--device': 'device',
  '--host': 'none',
  '--vdom': 'vdom',
  '--output': 'output',
  '--ca-file': 'file',
  '--timeout': 'none',
  '--group': 'group',
  '--area': 'area',
  '--filter': 'filter',
  '--fields': 'fields',
  '--start': 'none',
  '--count': 'none',
  '--page-size': 'none',
  '--key': 'field',
  '--pattern': 'none',
  '--scope': 'choices',
  '--file': 'file',
  '--data': 'none',
  '--set': 'set',
  '--concurrency': 'none',
  '--before': 'key',
  '--after': 'key',
  '--port': 'none',
  '--state': 'file',
  '--config': 'file',
  '--seed': 'choices',
  '--vdoms': 'none',
  '--username': 'none',
  '--token-code': 'none',
  '--fingerprint': 'none',
  '--prefix': 'none',
};

/** The kind of each positional argument: by `command argument` first, else by argument name. */
export const ARGUMENT_KINDS: Record<string, ValueKind> = {
  table: 'table',
  key: 'key',
  keys: 'keys',
  'new-key': 'none',
  body: 'none',
  // `update <table> [args...]` is `[key] [body]`: only the first word is a key.
  'update args': 'key',
  shell: 'shell',
  name: 'device',
};

/** Which tables a command offers: those listing one of these operations (SPEC.md codes). */
export interface TableRule {
  keyed: OperationCode[];
  singleton: OperationCode[];
}

/** Mirrors the checks of src/commands (requireOperation, requireKeyed); commands absent here take every table. */
export const TABLE_RULES: Record<string, TableRule> = {
  list: { keyed: ['L'], singleton: ['L', 'G'] },
  get: { keyed: ['R'], singleton: ['G', 'L'] },
  create: { keyed: ['C'], singleton: ['C'] },
  clone: { keyed: ['C'], singleton: [] },
  update: { keyed: ['U'], singleton: ['P'] },
  move: { keyed: ['U'], singleton: [] },
  delete: { keyed: ['D'], singleton: [] },
};

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
