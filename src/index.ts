import type { Env } from './env';
import { ApiError } from './errors';
import { preflightResponse, withCors } from './http/cors';
import { requestLogLine } from './http/logging';
import { withSecurityHeaders } from './http/security-headers';
import { releaseUnreadBody } from './http/unread-body';
import { artifactCache, errorResponse, router, type RequestContext } from './router';

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const rc: RequestContext = {
      requestId: crypto.randomUUID(),
      started: Date.now(),
      load: { loaded: [], cacheHits: 0 },
      log: {},
    };
    let response: Response;
    if (request.method === 'OPTIONS') {
      // CORS preflight: answered before routing and authentication (browsers never send the key on a preflight).
      response = preflightResponse(rc.requestId);
    } else {
      try {
        response = (await router.fetch(request, env, ctx, rc)) as Response;
      } catch (err) {
        response = errorResponse(err, rc);
        if (err instanceof ApiError) {
          if (typeof err.extra?.reason === 'string') rc.log.reason = err.extra.reason;
          for (const [name, value] of Object.entries(err.headers ?? {})) response.headers.set(name, value);
        }
      }
      response = withSecurityHeaders(withCors(response));
    }
    // No answer leaves the upload half read (docs/decisions/early-answers.md).
    await releaseUnreadBody(request);
    // One structured line per request (src/http/logging.ts): never the API key or the query text.
    console.log(requestLogLine(rc, request, response.status, artifactCache(env, rc).stats()));
    return response;
  },
} satisfies ExportedHandler<Env>;
