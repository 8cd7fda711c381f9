// The reference library (CLI.md "References between tables"): what objects name, the order a plan's
// steps must be written in, the checks before a plan is sent, who names an object, what nothing names,
// and the explanations of a device's refusals. Pure functions of the catalogue and plain values: the
// commands read the device and print; nothing here sends a request.
export {
  evaluatesTopDown,
  isGlobal,
  keyId,
  missingRequired,
  referencesOf,
  SSL_VPN_INTERFACE,
  tablesNamedBy,
  targetName,
  valuesAt,
  whereOf,
  type FieldReference,
  type FindTable,
  type Key,
  type ObjectReference,
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
export { findUnused, namingTables, UsageIndex, type IsFactory, type ObjectAt, type Unused } from './usage.js';
export {
  missingMessage,
  inUseMessage,
  refusedReferenceMessage,
  usedByMessage,
  userName,
  type RefUser,
} from './messages.js';
export { factoryFacts, type FactoryFile } from './factory.js';
