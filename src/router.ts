import { Router, type IRequest } from 'itty-router';
import { ArtifactCache, DEFAULT_CACHE_BYTES } from './adapters/artifact-cache';
import { workersEdgeCache } from './adapters/edge-cache';
import { openR2Index, pointerTtlMs, type LoadStats } from './adapters/r2-index';
import type { Env } from './env';
import { ApiError, toErrorBody } from './errors';
import { openApiDocument } from './openapi/document';
import { authenticate, authorize, rateLimit } from './http/guard';
import { queryStages } from './http/logging';
import { answerQuery, parseQueryRequest } from './routes/query';
import { listMetadataFilters, parseListingParams } from './routes/metadata-filters';
import { handleMcp } from './routes/mcp';
import { docsFile, docsPage } from './routes/docs';

export const DOMAINS = new Set(['sp500']);

/** Per-request context: the id, timings and load statistics that go into the one structured log line. */
export interface RequestContext {
  requestId: string;
  started: number;
  load: LoadStats;
  log: Record<string, unknown>;
  /** The request's own artifact cache when ARTIFACT_CACHE_SCOPE=request (see artifactCache). */
  cache?: ArtifactCache;
}

// The per-isolate artifact cache: created on first use (no work at module scope), shared across requests of this
// isolate by design; it holds decoded index artifacts only, never request data.
let isolateCache: ArtifactCache | undefined;
export function getIsolateCache(env: Env): ArtifactCache {
  const budget = Number(env.ARTIFACT_CACHE_BYTES) || DEFAULT_CACHE_BYTES;
  if (!isolateCache || isolateCache.budget !== budget) isolateCache = new ArtifactCache(budget);
  return isolateCache;
}

/**
 * The artifact cache a request uses: the isolate's, or with ARTIFACT_CACHE_SCOPE=request an empty one of its own, so
 * that every request reads what a fresh isolate would (the cold path, measured by `npm run bench:scale -- --serve`).
 */
export function artifactCache(env: Env, rc: RequestContext): ArtifactCache {
  if (env.ARTIFACT_CACHE_SCOPE !== 'request') return getIsolateCache(env);
  return (rc.cache ??= new ArtifactCache(Number(env.ARTIFACT_CACHE_BYTES) || DEFAULT_CACHE_BYTES));
}

/** Drops every artifact this isolate holds, as a fresh isolate starts (tests of the layers below it). */
export function dropIsolateCache(): void {
  isolateCache = undefined;
}

const openIndex = (env: Env, ctx: ExecutionContext, domain: string, rc: RequestContext) =>
  openR2Index(env.INDEX_BUCKET, env.INDEX_KV, domain, artifactCache(env, rc), {
    stats: rc.load,
    pointerTtl: pointerTtlMs(env.POINTER_TTL_SECONDS),
    edge: env.EDGE_CACHE === 'off' ? undefined : workersEdgeCache(caches, ctx),
    shardReads: env.SHARD_READS === 'whole' ? 'whole' : 'ranges',
  });

function json(body: unknown, status: number, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      'cache-control': 'no-store',
    },
  });
}

function domainOf(request: IRequest): string {
  const domain = request.params.domain ?? '';
  if (!DOMAINS.has(domain)) throw new ApiError('UNKNOWN_DOMAIN', { extra: { domain, known_domains: [...DOMAINS] } });
  return domain;
}

const notAllowed = () => {
  throw new ApiError('METHOD_NOT_ALLOWED');
};

export const router = Router<IRequest, [Env, ExecutionContext, RequestContext]>();

router
  .post('/v2/:domain/query', async (request, env, ctx, rc) => {
    const domain = domainOf(request);
    const keyHash = await authenticate(request, env, rc);
    const stages = queryStages(rc, () => openIndex(env, ctx, domain, rc));
    // The limiter's answer and the body are awaited together, and both settle before any answer: a 429 sent while
    // the body is still being read leaves the request half-read (wrangler dev then answered 500 or dropped the
    // connection). The read is bounded: 64 KiB kept, at most 1 MiB drained. The limit still decides first (429).
    const [limit, body] = await Promise.allSettled([rateLimit(env, keyHash, rc), parseQueryRequest(request)]);
    if (limit.status === 'rejected') throw limit.reason;
    if (body.status === 'rejected') throw body.reason;
    const result = await answerQuery(body.value, stages.open, rc.requestId);
    stages.done();
    Object.assign(rc.log, {
      mode: result.mode,
      effort: result.effort,
      shape: result.trace.analysis.shape,
      searched_shards: result.trace.searchedShards.length,
      passes: result.trace.passes.filter((x) => !x.skipped).length,
      evidence_count: result.body.summary?.evidence_count,
    });
    return json(result.body, 200, rc.requestId);
  })
  .all('/v2/:domain/query', notAllowed)
  .get('/v2/:domain/metadata-filters', async (request, env, ctx, rc) => {
    const domain = domainOf(request);
    await authorize(request, env, rc);
    const params = parseListingParams(new URL(request.url));
    const reader = await openIndex(env, ctx, domain, rc);
    return json(listMetadataFilters(reader, params), 200, rc.requestId);
  })
  .all('/v2/:domain/metadata-filters', notAllowed)
  // Model Context Protocol (Streamable HTTP, stateless): the same tools as the two routes above. Bearer keys are
  // accepted here because many MCP clients can set Authorization but not a custom header.
  .post('/v2/:domain/mcp', async (request, env, ctx, rc) => {
    const domain = domainOf(request);
    await authorize(request, env, rc, { allowBearer: true });
    return handleMcp(request, {
      requestId: rc.requestId,
      openIndex: () => openIndex(env, ctx, domain, rc),
      log: rc.log,
    });
  })
  // No server-initiated stream (GET) and no sessions to end (DELETE): the endpoint is stateless.
  .all('/v2/:domain/mcp', notAllowed)
  // The interface description is public: it holds no index data, and clients fetch it before they have a key.
  .get('/v2/:domain/openapi.json', (request, _env, _ctx, rc) => {
    domainOf(request);
    return json(openApiDocument(), 200, rc.requestId);
  })
  .all('/v2/:domain/openapi.json', notAllowed)
  // The API reference page renders that document, and is public for the same reason; its "try it" calls carry the
  // key the reader enters. Only the second route loads Swagger UI's files (src/routes/docs.ts).
  .get('/v2/:domain/docs', (request, _env, _ctx, rc) => docsPage(domainOf(request), rc.requestId))
  .all('/v2/:domain/docs', notAllowed)
  .get('/v2/:domain/docs/:file', (request, _env, _ctx, rc) => {
    domainOf(request);
    return docsFile(request.params.file ?? '', request, rc.requestId);
  })
  .all('/v2/:domain/docs/:file', notAllowed)
  .all('*', () => {
    throw new ApiError('NOT_FOUND');
  });

/** The one place that turns a thrown error into a response body. */
export function errorResponse(err: unknown, rc: RequestContext): Response {
  if (err instanceof ApiError) {
    rc.log.error_code = err.code;
    return json(toErrorBody(err, rc.requestId), err.status, rc.requestId);
  }
  rc.log.error_code = 'INTERNAL';
  console.error(
    JSON.stringify({
      level: 'error',
      request_id: rc.requestId,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    }),
  );
  return json(toErrorBody(new ApiError('INTERNAL'), rc.requestId), 500, rc.requestId);
}
