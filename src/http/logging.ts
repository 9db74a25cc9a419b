import type { CacheStats } from '../adapters/artifact-cache';
import type { LoadStats } from '../adapters/r2-index';

/** What the request log needs from the router's per-request context (structurally its RequestContext). */
export interface LogContext {
  requestId: string;
  started: number;
  load: LoadStats;
  log: Record<string, unknown>;
}

/** Stage timings of one request, in ms. Stages a request never reached are absent. */
export interface StageTimings {
  auth?: number;
  rate_limit?: number;
  /** Body read, JSON parse and validation (until the index is first needed). */
  parse?: number;
  /** KV/R2 reads, checksum verification and decoding, wherever they happen (overlapping loads counted once). */
  load?: number;
  /**
   * Filtering, search, chains, budget and rendering: the query's time after the index opened, minus loads. One
   * figure, because retrieval and rendering interleave inside the pure core (src/core/run-query.ts) and the core
   * takes no clock; splitting it needs a stage hook there.
   */
  retrieve_render?: number;
}

/** Records one stage's duration (ms) on the request's log line. */
export function addTiming(rc: LogContext, stage: keyof StageTimings, ms: number): void {
  rc.log.timings_ms = {
    ...(rc.log.timings_ms as StageTimings | undefined),
    [stage]: Math.max(0, Math.round(ms * 10) / 10),
  };
}

/**
 * Times the parse and retrieve_render stages of a query around the route's index opener, without the route knowing:
 * parse ends when the route first asks for the index (it validates before any index I/O), and everything after the
 * index opened, minus load time, is retrieval and rendering.
 */
export function queryStages<R>(rc: LogContext, open: () => Promise<R>): { open: () => Promise<R>; done: () => void } {
  const routeStart = performance.now();
  let openedAt: number | null = null;
  let loadBeforeOpenDone = 0;
  return {
    open: async () => {
      addTiming(rc, 'parse', performance.now() - routeStart);
      try {
        return await open();
      } finally {
        openedAt = performance.now();
        loadBeforeOpenDone = rc.load.loadMs ?? 0;
      }
    },
    done: () => {
      if (openedAt === null) return;
      addTiming(rc, 'retrieve_render', performance.now() - openedAt - ((rc.load.loadMs ?? 0) - loadBeforeOpenDone));
    },
  };
}

/**
 * The one structured log line of a request. Built from an allow-list of fields, so nothing request-supplied can slip
 * in: never the API key (only key_id, 8 hex digits of its SHA-256), never the query text or filter values, never
 * the URL's query string.
 *
 * Timings use performance.now(), which in production workerd advances only across I/O (a Spectre mitigation): CPU-only
 * stages then read 0 there, and only I/O waits (KV, R2, body streaming) show. Locally (wrangler dev, vitest) the clock
 * runs and the figures are real wall time.
 */
export function requestLogLine(rc: LogContext, request: Request, status: number, cache: CacheStats): string {
  const pick = (key: string) => (rc.log[key] === undefined ? {} : { [key]: rc.log[key] });
  const timings = {
    ...(rc.log.timings_ms as StageTimings | undefined),
    load: Math.round((rc.load.loadMs ?? 0) * 10) / 10,
  };
  return JSON.stringify({
    level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    request_id: rc.requestId,
    method: request.method,
    path: new URL(request.url).pathname,
    status,
    ms: Date.now() - rc.started,
    ...pick('error_code'),
    ...pick('reason'),
    ...pick('key_id'),
    ...pick('rate_limit'),
    ...pick('mode'),
    ...pick('effort'),
    ...pick('shape'),
    ...pick('searched_shards'),
    ...pick('passes'),
    ...pick('evidence_count'),
    ...pick('tool'),
    ...pick('tool_error_code'),
    timings_ms: timings,
    shards_loaded: rc.load.loaded.filter((f) => f.startsWith('shards/')).length,
    artifacts_loaded: rc.load.loaded.length,
    cache_hits: rc.load.cacheHits,
    storage_bytes: rc.load.storageBytes ?? 0,
    objects_read: rc.load.objectsRead ?? 0,
    ranges_read: rc.load.rangesRead ?? 0,
    edge_cache_hits: rc.load.edgeHits ?? 0,
    cache_bytes: cache.bytes,
    cache_budget: cache.budget,
    cache_entries: cache.entries,
  });
}
