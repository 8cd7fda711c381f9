// The catalogue's data as types: a table's summary and definition, its fields' schema, references and scope.
import type { OperationCode } from '../grammar/types.js';

// SPEC.md's operation codes are also the words a command accepts tables by (src/grammar).
export type { OperationCode } from '../grammar/types.js';
export type KeyType = 'string' | 'integer';

export interface FieldSchema {
  type: 'string' | 'integer' | 'array';
  format?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** A multi-value option field: one string of space-separated values from `enum` (order not kept by the device). */
  multiple?: boolean;
  items?: Record<string, FieldSchema>;
  /** The objects a value must name (catalogue paths without the leading slash; `field` may cross sub-tables). */
  references?: FieldReference[];
  /** What a new object gets (from device schemas). */
  default?: string | number;
  /** The device's schema marks it required, in many cases only where it applies: a hint, never a check. */
  required?: boolean;
  /** The device schema's own type (`option`, `string`, `ipv4-classnet`, ...): decides quoting in its syntax. */
  deviceType?: string;
}

/** A table and field a reference must name: `{table: 'firewall/address', field: 'name'}`. */
export interface FieldReference {
  table: string;
  field: string;
}

/** Where a table's objects live: per VDOM, once for the device, or both (PROTOCOL.md "References and integrity"). */
export type TableScope = 'vdom' | 'global' | 'global-vdom' | 'both';

/** What `cmdb tables` shows of a table, read without its fields. */
export interface TableSummary {
  /** Path without the leading slash, as users write it: `firewall.ipmacbinding/table`. */
  path: string;
  group: string;
  /** The operations the device documents (for SPEC.md's tables a superset of SPEC.md's list). */
  operations: OperationCode[];
  singleton: boolean;
  /** The key field the device uses in item paths; null for singletons. */
  key: string | null;
  keyType: KeyType | null;
  /** One of SPEC.md's 42 tables, with SPEC.md's list of its operations. */
  spec?: true;
  specOperations?: OperationCode[];
  /** The device's name of a table SPEC.md renamed (`vpn.ipsec/forticlient` for `vpn.ipsec/vendorclient`). */
  deviceName?: string;
  /** Absent where no capture of the device tells it. */
  scope?: TableScope;
}

export interface TableDef extends TableSummary {
  fields: Record<string, FieldSchema>;
  /** False for a well-formed path nobody describes, sent as a keyed table with a string key. */
  known: boolean;
  /** For a name that stands for a catalogued table (the device's name of a renamed one): the catalogue's path. */
  aliasOf?: string;
}
