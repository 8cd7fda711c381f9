// The device's own configuration syntax (`config` / `edit` / `set` / `next` / `end`), both ways: a
// floor of its own that imports only the catalogue and the errors. The commands' `-o cli`, `.conf`
// documents and backups go through these exports (docs/dev/architecture.md, "The device's syntax").
export {
  contentOf,
  readConf,
  type ConfDocument,
  type ConfObject,
  type ConfStep,
  type ConfTable,
  type Key,
  type Lookup,
  type ReadOptions,
  type UnknownBlock,
} from './interpret.js';
export { memberField } from './fields.js';
export { isConf, MAX_CONF_LENGTH, MAX_NESTING } from './read.js';
export {
  ConfWriter,
  DEFAULTS_EXCLUDED,
  needsBackupLayout,
  writeConf,
  type ConfTableInput,
  type Obj,
  type WriteOptions,
} from './write.js';
