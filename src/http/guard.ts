import { requireApiKey } from '../auth';
import type { Env } from '../env';
import { enforceRateLimit, ratePeriodSeconds } from './rate-limit';
import { addTiming, type LogContext } from './logging';

/**
 * Authentication then the per-key rate limit, for every authenticated route. Records the auth and rate_limit timings, the
 * limiter outcome and a short key id (a prefix of the key's SHA-256, never the key) on the request's log line.
 */
export async function authorize(request: Request, env: Env, rc: LogContext, opts: { allowBearer?: boolean } = {}): Promise<void> {
  const authStart = performance.now();
  const keyHash = await requireApiKey(request, env.API_KEY_HASHES, opts).finally(() => addTiming(rc, 'auth', performance.now() - authStart));
  rc.log.key_id = keyHash.slice(0, 8);
  const limitStart = performance.now();
  try {
    rc.log.rate_limit = await enforceRateLimit(env.RATE_LIMITER, keyHash, ratePeriodSeconds(env.RATE_LIMIT_PERIOD_SECONDS));
  } catch (err) {
    rc.log.rate_limit = 'limited';
    throw err;
  } finally {
    addTiming(rc, 'rate_limit', performance.now() - limitStart);
  }
}
