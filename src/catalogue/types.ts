/** Operation codes of SPEC.md: L list, C create, R read, U update, D delete, G get singleton, P put singleton. */
export type OperationCode = 'L' | 'C' | 'R' | 'U' | 'D' | 'G' | 'P';
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
}

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
}

export interface TableDef extends TableSummary {
  fields: Record<string, FieldSchema>;
  /** False for a well-formed path nobody describes, sent as a keyed table with a string key. */
  known: boolean;
  /** For a name that stands for a catalogued table (the device's name of a renamed one): the catalogue's path. */
  aliasOf?: string;
}
