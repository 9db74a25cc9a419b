/**
 * The one retry loop of the builder's network calls (EDGAR over HTTP, R2/KV through wrangler's bindings): bounded
 * attempts, exponential backoff with jitter, and a server's Retry-After honoured. Jitter matters when many calls fail
 * together (a dropped connection, a throttled burst): without it they all come back at the same instant.
 */

/** Thrown by a call for a failure worth another attempt, with the wait the server asked for (Retry-After), if any. */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'RetryableError';
  }
}

/** The call failed on every attempt, or the server asked for a longer wait than the policy allows. */
export class RetriesExhaustedError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(message);
    this.name = 'RetriesExhaustedError';
  }
}

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** The backoff before the first retry; it doubles with each retry. */
  baseMs: number;
  /** A wait (backoff or Retry-After) above this ends the call instead; default no limit. */
  maxWaitMs?: number;
  /** Which failures are worth another attempt; default every one. A RetryableError always is. */
  retryable?: (err: unknown) => boolean;
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
  /** Injected in tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * The wait before retry `attempt` (0 for the first): half of base * 2^attempt fixed, the other half random ("equal
 * jitter": spread out, yet never much shorter than the plain backoff), and never shorter than Retry-After.
 */
export function retryWaitMs(
  attempt: number,
  baseMs: number,
  retryAfterMs: number | null,
  random: () => number,
): number {
  const backoff = baseMs * 2 ** attempt;
  const jittered = Math.round(backoff / 2 + (random() * backoff) / 2);
  return Math.max(retryAfterMs ?? 0, jittered);
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs `call` until it succeeds, a failure is not retryable (thrown as is), or the policy gives up. */
export async function retry<T>(what: string, call: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const sleep = policy.sleep ?? realSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(attempt);
    } catch (err) {
      if (!(err instanceof RetryableError) && policy.retryable && !policy.retryable(err)) throw err;
      const reason = reasonOf(err);
      const waitMs = retryWaitMs(
        attempt,
        policy.baseMs,
        err instanceof RetryableError ? err.retryAfterMs : null,
        random,
      );
      if (attempt >= policy.retries)
        throw new RetriesExhaustedError(
          `${what}: ${reason}, giving up after ${attempt + 1} attempts`,
          attempt + 1,
          err,
        );
      if (policy.maxWaitMs !== undefined && waitMs > policy.maxWaitMs) {
        throw new RetriesExhaustedError(
          `${what}: ${reason}, giving up: asked to wait ${Math.round(waitMs / 1000)} s`,
          attempt + 1,
          err,
        );
      }
      policy.onRetry?.({ attempt: attempt + 1, waitMs, reason });
      await sleep(waitMs);
    }
  }
}
