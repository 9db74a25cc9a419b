/**
 * CORS: any origin may call the API from a browser. Authentication is the X-API-Key header, never a cookie, so a page
 * on another origin gains nothing it does not already hold (it must send a key it has); allowing `*` without
 * credentials is safe and lets browser-based agents and notebooks call the API directly.
 */
export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';
export const CORS_ALLOWED_HEADERS = 'Content-Type, X-API-Key';
/** Headers a browser script may read: the request id to quote in bug reports, Retry-After on 429. */
export const CORS_EXPOSED_HEADERS = 'X-Request-Id, Retry-After';
/** How long a browser may cache the preflight answer (seconds). */
export const CORS_MAX_AGE = '86400';

/**
 * Answers an OPTIONS request (a CORS preflight, or a plain capability probe) on any path, without authentication:
 * browsers never send X-API-Key on a preflight, and the answer reveals nothing but the policy above.
 */
export function preflightResponse(requestId: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': CORS_ALLOWED_METHODS,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-max-age': CORS_MAX_AGE,
      allow: CORS_ALLOWED_METHODS,
      'x-request-id': requestId,
    },
  });
}

/** Adds the CORS response headers to every non-preflight answer, errors included (a browser must read a 401/429). */
export function withCors(response: Response): Response {
  const out = new Response(response.body, response);
  out.headers.set('access-control-allow-origin', '*');
  out.headers.set('access-control-expose-headers', CORS_EXPOSED_HEADERS);
  return out;
}
