/** SEC's fair-access limit: no more than 10 requests per second from one user, across all machines. */
export const MAX_REQUESTS_PER_SECOND = 10;
/** Below the limit by default: other tools of the same user may be fetching too. */
export const DEFAULT_REQUESTS_PER_SECOND = 5;

const WINDOW_MS = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Slot {
  /** performance.now() when the answer was read (or the attempt failed); Infinity while in flight. */
  end: number;
  ended: Promise<void>;
  release: () => void;
}

/**
 * Paces requests for SEC's "no more than 10 requests per second", counted where SEC counts: at the server.
 *
 * Two rules. (1) Starts are at least 1/rate seconds apart, so requests flow evenly instead of in bursts.
 * (2) A request may start only a full second after the request `floor(rate)` places before it was answered.
 * A request arrives at the server after it starts and before its answer is read, so rule 2 puts any
 * floor(rate) + 1 consecutive arrivals more than a second apart whatever the network jitter; spacing alone
 * (rule 1) cannot promise that, since one slow first send lets the next ones crowd into its second.
 */
export class IntervalLimiter {
  readonly intervalMs: number;
  readonly perWindow: number;
  private nextStart = -Infinity;
  /** The last `perWindow` slots handed out, oldest first. */
  private recent: Slot[] = [];

  constructor(
    readonly perSecond: number = DEFAULT_REQUESTS_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(perSecond > 0) || perSecond > MAX_REQUESTS_PER_SECOND) {
      throw new Error(
        `request rate must be above 0 and at most ${MAX_REQUESTS_PER_SECOND} per second (SEC fair access), ` +
          `got ${perSecond}`,
      );
    }
    this.intervalMs = 1000 / perSecond;
    this.perWindow = Math.max(1, Math.floor(perSecond));
  }

  /**
   * Resolves when the caller may start its request, with the function to call once the answer has been read or
   * the attempt has failed. Slots are reserved synchronously, so concurrent callers share one schedule.
   */
  async take(): Promise<() => void> {
    const start = Math.max(this.now(), this.nextStart);
    this.nextStart = start + this.intervalMs;
    const earlier = this.recent.length >= this.perWindow ? this.recent[this.recent.length - this.perWindow] : undefined;
    let release!: () => void;
    const slot: Slot = { end: Infinity, ended: new Promise<void>((r) => (release = r)), release: () => {} };
    slot.release = () => {
      if (slot.end === Infinity) slot.end = this.now();
      release();
    };
    this.recent.push(slot);
    if (this.recent.length > this.perWindow) this.recent.shift();

    await this.waitUntil(start);
    if (earlier) {
      await earlier.ended;
      await this.waitUntil(earlier.end + WINDOW_MS);
    }
    // Started late (a busy event loop, rule 2): space the next start from the real one.
    this.nextStart = Math.max(this.nextStart, this.now() + this.intervalMs);
    return slot.release;
  }

  /** Timers may fire a little early; wait until the clock has really passed `t`. */
  private async waitUntil(t: number): Promise<void> {
    for (let wait = t - this.now(); wait > 0; wait = t - this.now()) await sleep(Math.ceil(wait));
  }
}
