import type { Env } from './env';
import { errorResponse, getIsolateCache, router, type RequestContext } from './router';

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const rc: RequestContext = { requestId: crypto.randomUUID(), started: Date.now(), load: { loaded: [], cacheHits: 0 }, log: {} };
    let response: Response;
    try {
      response = (await router.fetch(request, env, ctx, rc)) as Response;
    } catch (err) {
      response = errorResponse(err, rc);
    }
    const cache = getIsolateCache(env).stats();
    // One structured line per request; never the API key or the query text.
    console.log(
      JSON.stringify({
        level: 'info',
        request_id: rc.requestId,
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        ms: Date.now() - rc.started,
        shards_loaded: rc.load.loaded.length,
        cache_hits: rc.load.cacheHits,
        cache_bytes: cache.bytes,
        ...rc.log,
      }),
    );
    return response;
  },
} satisfies ExportedHandler<Env>;
