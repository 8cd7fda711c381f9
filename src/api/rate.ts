// A device's rate limit (HTTP 429 with Retry-After): how long to wait, how often to try again, and one
// gate that holds every request of a client while it waits.
import { setTimeout as sleep } from 'node:timers/promises';

/** Tries of one request that the device answers 429 (its rate limit) before giving up. */
export const RATE_LIMIT_TRIES = 5;
/**
 * A `Retry-After` longer than this is not waited for: the run ends (exit 8) saying how long. A rate
 * limit clears in seconds; a block after failed logins (which a token run meets too) lasts longer.
 */
export const MAX_RETRY_AFTER_S = 10;
const FIRST_BACKOFF_MS = 500;

/**
 * How long to wait after the `attempt`-th 429 (1-based): the device's `Retry-After` when it gave one,
 * else exponential backoff (0.5, 1, 2, 4 s) with jitter, so that parallel runs do not come back in step.
 */
export function rateLimitDelayMs(
  attempt: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds * 1000;
  const ceiling = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The requests one client has in flight to its device. While the device answers 429, every request
 * waits out the pause, and the number in flight is halved (down to one); it grows back by one after
 * as many successes as the current limit, so a bulk run slows down while the rate limit lasts.
 */
export class RateGate {
  private limit = Number.POSITIVE_INFINITY;
  private inFlight = 0;
  private successes = 0;
  private pausedUntil = 0;
  private readonly waiting: (() => void)[] = [];

  async enter(): Promise<void> {
    for (;;) {
      const pause = this.pausedUntil - Date.now();
      if (pause > 0) await sleep(pause);
      else if (this.inFlight < this.limit) break;
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  /** A 429: pause everyone for `waitMs` and halve the concurrency. */
  limited(waitMs: number): void {
    this.limit = Math.max(1, Math.floor(Math.min(this.limit, this.inFlight) / 2));
    this.successes = 0;
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
  }

  succeeded(): void {
    if (this.limit === Number.POSITIVE_INFINITY || ++this.successes < this.limit) return;
    this.limit++;
    this.successes = 0;
    this.waiting.shift()?.();
  }
}
