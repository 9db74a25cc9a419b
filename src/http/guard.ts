import { requireApiKey } from '../auth';
import type { Env } from '../env';
import { enforceRateLimit, ratePeriodSeconds } from './rate-limit';
import { addTiming, type LogContext } from './logging';

/**
 * Authentication then the per-key rate limit, for every authenticated route. Records the auth and rate_limit timings,
 * the limiter outcome and a short key id (a prefix of the key's SHA-256, never the key) on the request's log line.
 */
export async function authorize(
  request: Request,
  env: Env,
  rc: LogContext,
  opts: { allowBearer?: boolean } = {},
): Promise<void> {
  await rateLimit(env, await authenticate(request, env, rc, opts), rc);
}

/** The key check alone: the key's SHA-256, or a 401. */
export async function authenticate(
  request: Request,
  env: Env,
  rc: LogContext,
  opts: { allowBearer?: boolean } = {},
): Promise<string> {
  const authStart = performance.now();
  const keyHash = await requireApiKey(request, env.API_KEY_HASHES, opts).finally(() =>
    addTiming(rc, 'auth', performance.now() - authStart),
  );
  rc.log.key_id = keyHash.slice(0, 8);
  return keyHash;
}

/**
 * The per-key limit of an authenticated key. A route may start it and read its body meanwhile (the limiter is a call
 * out of the isolate), as long as it awaits this before answering anything else, so a limited key always gets 429.
 */
export async function rateLimit(env: Env, keyHash: string, rc: LogContext): Promise<void> {
  const limitStart = performance.now();
  try {
    rc.log.rate_limit = await enforceRateLimit(
      env.RATE_LIMITER,
      keyHash,
      ratePeriodSeconds(env.RATE_LIMIT_PERIOD_SECONDS),
    );
  } catch (err) {
    rc.log.rate_limit = 'limited';
    throw err;
  } finally {
    addTiming(rc, 'rate_limit', performance.now() - limitStart);
  }
}
