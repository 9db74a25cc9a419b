/**
 * The API answers JSON (and MCP's event stream), never a page: its CSP forbids loading or framing anything, so a body
 * opened in a browser cannot run as a document. A route that serves a page (the API reference, src/routes/docs.ts)
 * sets a CSP of its own, which is kept.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Adds the CSP (unless the route set one) and nosniff to an answer whose headers are mutable (after withCors). */
export function withSecurityHeaders(response: Response): Response {
  if (!response.headers.has('content-security-policy')) response.headers.set('content-security-policy', API_CSP);
  response.headers.set('x-content-type-options', 'nosniff');
  return response;
}
