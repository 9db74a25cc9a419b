/** SEC's fair-access limit: no more than 10 requests per second from one user, across all machines. */
export const MAX_REQUESTS_PER_SECOND = 10;
/** Below the limit by default: other tools of the same user may be fetching too. */
export const DEFAULT_REQUESTS_PER_SECOND = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Hands out request start times at least 1/rate seconds apart. A fixed interval (a token bucket of size one)
 * rather than a bucket with burst: with bursts, a full bucket plus a refill can put more than `rate` requests in
 * one sliding second, which is what the SEC counts. Slots are reserved synchronously, so concurrent callers
 * share one schedule.
 */
export class IntervalLimiter {
  readonly intervalMs: number;
  private nextSlot = -Infinity;

  constructor(
    readonly perSecond: number = DEFAULT_REQUESTS_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(perSecond > 0) || perSecond > MAX_REQUESTS_PER_SECOND) {
      throw new Error(`request rate must be above 0 and at most ${MAX_REQUESTS_PER_SECOND} per second (SEC fair access), got ${perSecond}`);
    }
    this.intervalMs = 1000 / perSecond;
  }

  /** Resolves when the caller may start its request. */
  async take(): Promise<void> {
    const slot = Math.max(this.now(), this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    // Timers may fire a little early; wait until the clock has really passed the slot.
    for (let wait = slot - this.now(); wait > 0; wait = slot - this.now()) await sleep(Math.ceil(wait));
    // A busy event loop can wake us late; spacing the next slot from the real start keeps the late request from
    // crowding into the following second.
    this.nextSlot = Math.max(this.nextSlot, this.now() + this.intervalMs);
  }
}
