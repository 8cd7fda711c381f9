// The JSON API behind authentication: the CMDB tables (cmdb.ts), batch transactions, the schema tree
// and the monitor endpoints clients call (status, firmware, the configuration backup, object usage).
import type { TableDef } from '../catalogue/index.js';
import type { DeviceRelease } from '../catalogue/device-schema.js';
import type { Catalogue } from '../catalogue/provider.js';
import type { Principal } from './login.js';
import { planOperation, type Operation } from './cmdb.js';
import {
  DEVICE,
  DeviceError,
  errorEnvelope,
  fail,
  splitTablePath,
  successEnvelope,
  type EnvelopeContext,
} from './envelope.js';
import { configBackup } from './backup.js';
import { flag } from './query.js';
import type { Integrity } from './references.js';
import { schemaTree, typeId } from './schema.js';
import { KeyedTable, revisionText, type Database, type View } from './store.js';
import type { TransactionManager } from './transactions.js';
import { parseJsonBody, validateObject } from './validate.js';

export const CMDB_PREFIX = '/api/v2/cmdb';
const STATUS_PATH = '/api/v2/monitor/system/status';
const FIRMWARE_PATH = '/api/v2/monitor/system/firmware';
const BACKUP_PATH = '/api/v2/monitor/system/config/backup';
const USAGE_PATH = '/api/v2/monitor/system/object/usage';

export interface ApiRequest {
  method: string;
  /** Pathname as received, still percent-encoded. */
  path: string;
  params: URLSearchParams;
  body: string;
  contentType: string | undefined;
  transactionId: string | undefined;
  principal: Principal;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  /** A plain-text answer (the configuration backup) instead of JSON. */
  text?: string;
}

export interface ApiDeps {
  db: Database;
  committed: View;
  transactions: TransactionManager;
  /** The device's rules about references (and its factory objects). */
  integrity: Integrity;
  hostname: string;
  /** The serial number every envelope carries (each emulator its own, so that a fleet of them can be told apart). */
  serial: string;
  /** The tables it serves. */
  catalogue: Catalogue;
  /**
   * The release (and serial number) its answers report, when not the emulated 6.4.14 device's; 7.6 takes the backup as
   * a POST.
   */
  release?: DeviceRelease;
}

/** Whether a release takes the configuration backup as a POST and refuses the GET (7.6 on; PROTOCOL.md). */
export function backupByPost(version: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > 7 || (major === 7 && minor >= 6);
}

interface VdomSelection {
  vdoms: string[];
  /** `vdom=a,b` and `vdom=*` answer an array of envelopes, even when it holds one. */
  multi: boolean;
}

const TRANSACTION_TIMEOUT = { type: 'integer', minimum: 1, maximum: 86400 } as const;
const TRANSACTION_ID = { type: 'integer', minimum: 0 } as const;

function canAccessVdom(principal: Principal, vdom: string): boolean {
  return principal.vdoms === '*' || principal.vdoms.has(vdom);
}

/**
 * `vdom` absent: the management VDOM; `*` (or `global=1`): every VDOM the
 * caller may use. A VDOM that does not exist answers 403 (-37), as one the
 * caller may not use does: devices do not tell them apart.
 */
function selectVdoms(db: Database, principal: Principal, params: URLSearchParams): VdomSelection {
  const param = params.get('vdom');
  if (param === '*' || flag(params, 'global')) {
    const vdoms = db.vdoms.filter((vdom) => canAccessVdom(principal, vdom));
    if (vdoms.length === 0) throw fail.noVdom('*');
    return { vdoms, multi: true };
  }
  const names = param ? [...new Set(param.split(',').map((name) => name.trim()))] : [db.vdoms[0]];
  for (const vdom of names) {
    if (!db.hasVdom(vdom) || !canAccessVdom(principal, vdom)) throw fail.noVdom(vdom);
  }
  return { vdoms: names, multi: !!param && param.includes(',') };
}

interface CmdbTarget {
  /** The catalogue's table (an alias resolved to it). */
  table: TableDef;
  /** The path as requested (an alias stays as written), for the envelope. */
  requested: string;
  itemKey: string | null;
  child: { field: string; key: string | null } | null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw fail.invalidRequest(`invalid percent-encoding in key '${segment}'`);
  }
}

/**
 * `<prefix>/<area>/<table>[/<mkey>[/<child>[/<id>]]]` (a singleton:
 * `<table>[/<child>[/<id>]]`), each key one percent-encoded segment.
 */
function parseTarget(catalogue: Catalogue, path: string): CmdbTarget {
  const segments = path.slice(CMDB_PREFIX.length + 1).split('/');
  if (segments.length > 2 && segments[segments.length - 1] === '') segments.pop();
  const found =
    segments.length >= 2 && segments[0] !== '' && segments[1] !== ''
      ? catalogue.find(`${segments[0]}/${segments[1]}`)
      : undefined;
  const table = found?.aliasOf ? catalogue.find(found.aliasOf) : found;
  if (!found || !table) throw fail.notFound();
  const rest = segments.slice(2).map(decodeSegment);
  const childAt = table.singleton ? 0 : 1;
  if (rest.length > childAt + 2) throw fail.notFound();
  const child = rest.length > childAt ? { field: rest[childAt], key: rest[childAt + 1] ?? null } : null;
  return { table, requested: found.path, itemKey: table.singleton ? null : (rest[0] ?? null), child };
}

function hasGroup(principal: Principal, group: string): boolean {
  return principal.groups === 'all' || principal.groups.has(group);
}

/** The HTTP status of several VDOM envelopes: 200 when all succeeded, else the first failure's. */
function combinedStatus(envelopes: Record<string, unknown>[]): number {
  const failed = envelopes.find((envelope) => envelope.status !== 'success');
  return failed ? Number(failed.http_status) : 200;
}

function requireMethod(request: ApiRequest, method: string): void {
  if (request.method !== method)
    throw fail.methodNotAllowed(
      `${request.params.get('action') ?? request.path} takes ${method}, not ${request.method}`,
    );
}

/** A success envelope outside any table (transactions). */
function answer(request: ApiRequest, results: unknown): ApiResponse {
  return { status: 200, body: successEnvelope({ http_method: request.method }, { results }) };
}

/** The JSON API: the CMDB tables, its batch transactions and the system status monitor. */
export class Api {
  constructor(private readonly deps: ApiDeps) {}

  handle(request: ApiRequest): ApiResponse {
    const response = this.route(request);
    // Every envelope says the release emulated and the serial number (a backup's text has its own header).
    return response.text === undefined
      ? { ...response, body: restamp(response.body, { ...this.deps.release, serial: this.deps.serial }) }
      : response;
  }

  private get release(): { version: string; build: number } {
    return { version: this.deps.release?.version ?? DEVICE.version, build: this.deps.release?.build ?? DEVICE.build };
  }

  private route(request: ApiRequest): ApiResponse {
    const context: EnvelopeContext = { http_method: request.method };
    try {
      if (request.path === STATUS_PATH) return this.status(request);
      if (request.path === FIRMWARE_PATH) return this.firmware(request);
      if (request.path === BACKUP_PATH) return this.backup(request);
      if (request.path === USAGE_PATH) return this.usage(request);
      if (request.path === CMDB_PREFIX || request.path === `${CMDB_PREFIX}/`) return this.transactionRequest(request);
      if (request.path.startsWith(`${CMDB_PREFIX}/`)) return this.cmdb(request, context);
      throw fail.notFound();
    } catch (error) {
      if (!(error instanceof DeviceError)) throw error;
      return { status: error.httpStatus, body: errorEnvelope(context, error) };
    }
  }

  private status(request: ApiRequest): ApiResponse {
    requireMethod(request, 'GET');
    const results = {
      model_name: 'CMDB',
      model_number: 'VM64',
      model: DEVICE.model,
      hostname: this.deps.hostname,
      log_disk_status: 'available',
    };
    const envelope = successEnvelope(
      { http_method: 'GET', vdom: this.deps.db.vdoms[0], path: 'system', name: 'status' },
      { results },
    );
    return { status: 200, body: { ...envelope, action: '' } };
  }

  /** What clients ask first to learn the release: `results.current` with major, minor, patch and build. */
  private firmware(request: ApiRequest): ApiResponse {
    requireMethod(request, 'GET');
    const { version, build } = this.release;
    const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number);
    const current = {
      id: `${DEVICE.platform}-${version}-build${build}`,
      version,
      major,
      minor,
      patch,
      build,
      'platform-id': DEVICE.platform,
      source: 'fortiguard',
    };
    const envelope = successEnvelope(
      { http_method: 'GET', vdom: this.deps.db.vdoms[0], path: 'system', name: 'firmware' },
      { results: { current, available: [] } },
    );
    return { status: 200, body: { ...envelope, action: '' } };
  }

  /**
   * `?scope=global` (every VDOM) or `scope=vdom&vdom=X`: the configuration as the device's CLI text.
   * 7.6 takes it as a POST whose JSON body carries them (`{"destination":"file","scope":"global"}`)
   * and refuses the GET.
   */
  private backup(request: ApiRequest): ApiResponse {
    const byPost = backupByPost(this.release.version);
    requireMethod(request, byPost ? 'POST' : 'GET');
    const params = new URLSearchParams(request.params);
    if (byPost) {
      const body = validateObject(
        { destination: { type: 'string' }, scope: { type: 'string' }, vdom: { type: 'string' } },
        parseJsonBody(request.body, request.contentType),
      );
      if (body.destination !== 'file')
        throw fail.invalidRequest(`invalid value for 'destination': ${JSON.stringify(body.destination ?? '')} (file)`);
      params.delete('scope');
      if (body.scope !== undefined) params.set('scope', String(body.scope));
      if (body.vdom !== undefined) params.set('vdom', String(body.vdom));
    }
    const scope = params.get('scope');
    if (scope !== 'global' && scope !== 'vdom')
      throw fail.invalidRequest(`invalid value for 'scope': ${JSON.stringify(scope ?? '')} (global|vdom)`);
    const principal = request.principal;
    if (scope === 'global' && principal.vdoms !== '*') throw fail.noVdom('global');
    const vdoms = scope === 'global' ? [...this.deps.db.vdoms] : selectVdoms(this.deps.db, principal, params).vdoms;
    return {
      status: 200,
      body: null,
      text: configBackup(this.deps.db, vdoms, scope, principal.name, {
        tables: this.deps.catalogue.all(),
        ...this.release,
      }),
    };
  }

  /**
   * `GET monitor/system/object/usage?q_path=&q_name=&mkey=` (and `vdom`, `scope`): the objects that
   * name an object directly (`currently_using`), and the tables that can (`can_use`). An unknown key
   * answers an empty list.
   */
  private usage(request: ApiRequest): ApiResponse {
    requireMethod(request, 'GET');
    const { params, principal } = request;
    const [qPath, qName, mkey] = ['q_path', 'q_name', 'mkey'].map((name) => params.get(name));
    if (!qPath || !qName || mkey === null)
      throw fail.missingParameter("object/usage needs the parameters 'q_path', 'q_name' and 'mkey'");
    const scope = params.get('scope');
    if (scope !== null && scope !== 'vdom' && scope !== 'global')
      throw fail.invalidRequest(`invalid value for 'scope': ${JSON.stringify(scope)} (vdom|global)`);
    const found = this.deps.catalogue.find(`${qPath}/${qName}`);
    const table = found?.aliasOf ? this.deps.catalogue.find(found.aliasOf) : found;
    if (!table || table.singleton) throw fail.notFound(`no table ${qPath}/${qName} whose objects can be named`);
    if (!hasGroup(principal, table.group)) throw fail.noGroup(table.group);
    const selection = selectVdoms(this.deps.db, principal, params);
    const view = this.viewFor(request);
    const envelopes = selection.vdoms.map((vdom) => {
      const results = this.usageIn(view, vdom, table, mkey);
      const context = { http_method: 'GET', vdom, path: 'system', name: 'object' };
      return { ...successEnvelope(context, { results }), action: 'usage' };
    });
    if (!selection.multi) return { status: 200, body: envelopes[0] };
    return { status: 200, body: envelopes };
  }

  private usageIn(view: View, vdom: string, table: TableDef, mkey: string): Record<string, unknown> {
    const { catalogue, integrity } = this.deps;
    const state = view.read(vdom, table.path);
    const key = table.keyType === 'integer' && /^\d+$/.test(mkey) ? Number(mkey) : mkey;
    const object = state instanceof KeyedTable ? state.get(key) : undefined;
    const users = object ? integrity.usersOfObject(view, vdom, table, object) : [];
    const currentlyUsing = users.map((use) => {
      const user = catalogue.find(use.table)!;
      return {
        ...splitTablePath(use.table),
        ...(use.key === null ? {} : { mkey: use.key }),
        ...(use.owner === null ? {} : { vdom: use.owner }),
        attribute: use.field,
        table_type: user.singleton ? 'complex' : 'table',
        static: use.key !== null && integrity.isStatic(use.owner ?? vdom, user, use.key),
        reference_count: 0,
      };
    });
    const tables = [...new Set(catalogue.referrers(table.path).map((referrer) => referrer.table))]
      .map((path) => catalogue.find(path))
      .filter((found): found is TableDef => found !== undefined);
    return {
      currently_using: currentlyUsing,
      can_use: tables.map((user) => ({ ...splitTablePath(user.path), range: user.scope ?? 'vdom' })),
      q_types: tables.map((user) => typeId(user)),
    };
  }

  private transactionRequest(request: ApiRequest): ApiResponse {
    const action = request.params.get('action');
    switch (action) {
      case null:
        throw fail.notFound();
      case 'transaction-list':
        requireMethod(request, 'GET');
        return answer(request, this.deps.transactions.list());
      case 'schema':
        return this.schemaTree(request);
      case 'transaction-start':
        return this.startTransaction(request);
      case 'transaction-commit':
      case 'transaction-abort':
        return this.finishTransaction(request, action);
      default:
        throw fail.invalidRequest(`invalid request: unknown action '${action}'`);
    }
  }

  /**
   * `GET <prefix>/?action=schema`: the whole tree as saved (`--schema FILE`), else the schema of every
   * table the caller's access groups reach.
   */
  private schemaTree(request: ApiRequest): ApiResponse {
    requireMethod(request, 'GET');
    const saved = this.deps.catalogue.tree?.();
    if (saved) return answer(request, saved);
    const vdom = selectVdoms(this.deps.db, request.principal, request.params).vdoms[0];
    const tables = this.deps.catalogue.all().filter((table) => hasGroup(request.principal, table.group));
    return { status: 200, body: successEnvelope({ http_method: 'GET', vdom }, { results: schemaTree(tables) }) };
  }

  private startTransaction(request: ApiRequest): ApiResponse {
    requireMethod(request, 'POST');
    const body = validateObject({ timeout: TRANSACTION_TIMEOUT }, parseJsonBody(request.body, request.contentType));
    const vdom = selectVdoms(this.deps.db, request.principal, request.params).vdoms[0];
    const id = this.deps.transactions.start(Number(body.timeout ?? 60));
    // A real 6.4 device answers the start like a write that changed nothing.
    const envelope = successEnvelope(
      { http_method: request.method, vdom },
      { revision: revisionText(vdom, 'transaction', id), revisionChanged: false, results: { 'transaction-id': id } },
    );
    return { status: 200, body: { ...envelope, action: 'transaction-start' } };
  }

  private finishTransaction(request: ApiRequest, action: 'transaction-commit' | 'transaction-abort'): ApiResponse {
    requireMethod(request, 'POST');
    const body = validateObject({ 'transaction-id': TRANSACTION_ID }, parseJsonBody(request.body, request.contentType));
    if (body['transaction-id'] === undefined) throw fail.mustBeSet('transaction-id');
    const id = Number(body['transaction-id']);
    const done = action === 'transaction-commit' ? this.deps.transactions.commit(id) : this.deps.transactions.abort(id);
    if (!done) throw fail.noTransaction(id);
    return answer(request, { 'transaction-id': id });
  }

  private viewFor(request: ApiRequest): View {
    if (request.transactionId === undefined) return this.deps.committed;
    if (!/^\d+$/.test(request.transactionId))
      throw fail.invalidRequest(`invalid X-TRANSACTION-ID: ${JSON.stringify(request.transactionId)}`);
    const view = this.deps.transactions.view(Number(request.transactionId));
    if (!view) throw fail.noTransaction(request.transactionId);
    return view;
  }

  private cmdb(request: ApiRequest, context: EnvelopeContext): ApiResponse {
    const { table, requested, itemKey, child } = parseTarget(this.deps.catalogue, request.path);
    Object.assign(
      context,
      { vdom: this.deps.db.vdoms[0], ...splitTablePath(requested) },
      itemKey === null ? {} : { mkey: itemKey },
    );
    if (!hasGroup(request.principal, table.group)) throw fail.noGroup(table.group);
    const selection = selectVdoms(this.deps.db, request.principal, request.params);
    context.vdom = selection.vdoms[0];
    const view = this.viewFor(request);
    const schema = this.deps.catalogue.schemaOf?.(table.path);
    const operation = planOperation({
      method: request.method,
      table,
      itemKey,
      child,
      params: request.params,
      body: request.body,
      contentType: request.contentType,
      schema,
    });
    const envelopes = selection.vdoms.map((vdom) => this.runIn(operation, table, { ...context, vdom }, view));
    if (!selection.multi) return { status: Number(envelopes[0].http_status), body: envelopes[0] };
    return { status: combinedStatus(envelopes), body: envelopes };
  }

  private runIn(operation: Operation, table: TableDef, context: EnvelopeContext, view: View): Record<string, unknown> {
    const vdom = context.vdom!;
    const before = view.read(vdom, table.path).revision;
    try {
      const result = operation.run({
        view,
        vdom,
        transactions: this.deps.transactions,
        integrity: this.deps.integrity,
      });
      const after = view.read(vdom, table.path).revision;
      const located = result.mkey === undefined ? context : { ...context, mkey: result.mkey };
      return successEnvelope(located, {
        revision: revisionText(vdom, table.path, after),
        ...(operation.write
          ? { revisionChanged: after !== before, oldRevision: revisionText(vdom, table.path, before) }
          : {}),
        results: result.results,
      });
    } catch (error) {
      if (!(error instanceof DeviceError)) throw error;
      return errorEnvelope(context, error);
    }
  }
}

/** Envelopes as the device of another release sends them: its release and serial number in each. */
function restamp(body: unknown, release: DeviceRelease): unknown {
  if (Array.isArray(body)) return body.map((envelope) => restamp(envelope, release));
  if (!body || typeof body !== 'object' || !('http_status' in body)) return body;
  return { ...body, ...release };
}
