// A device transaction: writes that the device applies together at the commit, or not at all.
import type { ApiRequest, ApiResult, CmdbClient } from './client.js';

/** The longest transaction a 6.4 device accepts, in seconds. */
const MAX_TIMEOUT = 86_400;

/**
 * A timeout that covers the work: a minute of slack plus a generous budget per write. A transaction
 * expires that long after it started, committed or not, so this errs long; an interrupted client
 * aborts it rather than waiting for it to expire.
 */
export function transactionTimeout(writes: number, perWriteSeconds = 1): number {
  return Math.min(MAX_TIMEOUT, 60 + Math.ceil(writes * perWriteSeconds));
}

/**
 * One batch transaction of release 6.4 (PROTOCOL.md): writes sent through it carry
 * `X-TRANSACTION-ID` and stay invisible to others until commit; abort discards them.
 */
export class Transaction {
  private state: 'open' | 'committed' | 'aborted' = 'open';

  private constructor(
    private readonly client: CmdbClient,
    readonly id: number,
    readonly vdom: string | undefined,
  ) {}

  /** `POST <prefix>?action=transaction-start` with `{"timeout": N}`, in one VDOM (default: the management VDOM). */
  static async start(client: CmdbClient, options: { timeoutSeconds: number; vdom?: string }): Promise<Transaction> {
    const result = await client.request({
      method: 'POST',
      tablePath: '',
      query: { action: 'transaction-start', ...(options.vdom ? { vdom: [options.vdom] } : {}) },
      body: { timeout: options.timeoutSeconds },
    });
    const results = result.envelopes[0]?.results as Record<string, unknown> | undefined;
    const id = Number(results?.['transaction-id']);
    if (!Number.isInteger(id)) throw new TypeError('the device started a transaction but named no transaction-id');
    return new Transaction(client, id, options.vdom);
  }

  get open(): boolean {
    return this.state === 'open';
  }

  /** Whether the device still lists the transaction among its open ones (`GET <prefix>?action=transaction-list`). */
  async isOpen(): Promise<boolean> {
    const result = await this.client.request({
      method: 'GET',
      tablePath: '',
      query: { action: 'transaction-list', ...(this.vdom ? { vdom: [this.vdom] } : {}) },
    });
    const listed = result.envelopes.flatMap((envelope) => (Array.isArray(envelope.results) ? envelope.results : []));
    return listed.some(
      (entry) =>
        !!entry &&
        typeof entry === 'object' &&
        Number((entry as Record<string, unknown>)['transaction-id']) === this.id,
    );
  }

  /** Sends one request inside the transaction. */
  request(req: ApiRequest): Promise<ApiResult> {
    return this.client.request({ ...req, headers: { ...req.headers, 'X-TRANSACTION-ID': String(this.id) } });
  }

  async commit(): Promise<void> {
    await this.finish('transaction-commit');
    this.state = 'committed';
  }

  /** Discards every write of the transaction; safe to call again, and after it ended. */
  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    await this.finish('transaction-abort');
  }

  private async finish(action: 'transaction-commit' | 'transaction-abort'): Promise<void> {
    await this.client.request({
      method: 'POST',
      tablePath: '',
      query: { action, ...(this.vdom ? { vdom: [this.vdom] } : {}) },
      body: { 'transaction-id': this.id },
    });
  }
}
