// The reference library (CLI.md "References between tables"): what objects name, the order a plan's
// steps must be written in, the checks before a plan is sent, who names an object, what nothing names,
// and the explanations of a device's refusals. Pure functions of the catalogue and plain values: the
// commands read the device and print; nothing here sends a request. What an object names, which tables
// can name a table and which objects are factory objects are the catalogue's facts
// (src/catalogue/references.ts, factory.ts), which this library reads.
export {
  evaluatesTopDown,
  isGlobal,
  keyId,
  missingRequired,
  targetName,
  whereOf,
  type FieldReference,
  type FindTable,
  type Key,
  type Obj,
  type RefStep,
  type TableReading,
} from './fields.js';
export { orderSteps, type ClosingUpdate, type OrderedSteps, type OrderOptions } from './order.js';
export {
  checkNeeds,
  checkPlan,
  type CheckNeeds,
  type CheckOptions,
  type CheckResult,
  type ReferenceProblem,
  type TableAt,
  type Unchecked,
} from './check.js';
export { findUnused, UsageIndex, type IsFactory, type ObjectAt, type Unused } from './usage.js';
export {
  missingMessage,
  inUseMessage,
  objectName,
  refusedReferenceMessage,
  usedByMessage,
  userName,
  type RefUser,
} from './messages.js';
