import { ApiError } from '../errors';

/** The part of Workers' rate-limiting binding (`[[ratelimits]]` in wrangler.toml) the Worker uses. */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export type RateLimitOutcome = 'allowed' | 'limited' | 'no_binding' | 'limiter_error';

/**
 * Counts one request against the caller's per-key limit. The limiter key is the SHA-256 of the API key (never the key
 * itself), so the limiter, like the logs, only ever sees a hash. Over the limit: 429 RATE_LIMITED with Retry-After
 * set to the binding's period, the longest a caller can have to wait (the binding does not report the window's end).
 *
 * Fails open: without a binding (a deployment that left it out) or when the limiter itself throws, the request goes
 * through and the outcome is logged. The limit protects capacity; refusing every caller because the counter is
 * unreachable would turn a limiter outage into a full outage.
 */
export async function enforceRateLimit(
  limiter: RateLimiter | undefined,
  keyHash: string,
  periodSeconds: number,
): Promise<RateLimitOutcome> {
  if (!limiter) return 'no_binding';
  let success: boolean;
  try {
    ({ success } = await limiter.limit({ key: `key:${keyHash}` }));
  } catch {
    return 'limiter_error';
  }
  if (success) return 'allowed';
  throw new ApiError('RATE_LIMITED', {
    extra: { retry_after_seconds: periodSeconds },
    headers: { 'retry-after': String(periodSeconds) },
  });
}

/** The binding's period from the RATE_LIMIT_PERIOD_SECONDS var; the binding only accepts 10 or 60. */
export function ratePeriodSeconds(value: string | undefined): number {
  return value === '10' ? 10 : 60;
}
