import { ApiError } from '../errors';

/**
 * The API reference page (GET /v2/<domain>/docs): Swagger UI rendering the served OpenAPI document, whose "Try it
 * out" sends the key the caller enters under "Authorize" as X-API-Key. Public like the document: the page holds no
 * index data, and every call made from it needs the caller's key.
 *
 * Swagger UI's files are static assets (wrangler.toml [assets], copied from swagger-ui-dist into generated/docs by
 * scripts/prepare-docs-assets.mjs), read through the ASSETS binding by this route alone: the Worker's bundle does not
 * carry them, and no other route touches them. Nothing is loaded from another origin, and the page's CSP says so.
 */

/** Swagger UI's files, served from the assets directory under the same names. */
export const DOCS_ASSET_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;
/** The page's own start-up script (served by the Worker: the CSP allows no inline script). */
export const DOCS_INIT_FILE = 'init.js';

/**
 * Only same-origin scripts, styles and calls; images from the page and data: URIs (Swagger UI's icons, the blank
 * favicon); no frames, forms or base URL. Swagger UI sets styles through the DOM, which style-src does not govern.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const docsBase = (domain: string) => `/v2/${domain}/docs`;

function page(domain: string): string {
  const base = docsBase(domain);
  const openapi = `/v2/${domain}/openapi.json`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Filing Evidence Retrieval Service: API reference (${domain})</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document it renders is at <a href="${openapi}">${openapi}</a>.</noscript>
<div id="swagger-ui" data-openapi-url="${openapi}"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/${DOCS_INIT_FILE}"></script>
</body>
</html>
`;
}

/**
 * Starts Swagger UI on the document named by the page. validatorUrl null: by default Swagger UI sends the document to
 * an external validator for a badge. No persisted authorization: the key stays in the page's memory, not in storage.
 */
const INIT_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
})();
`;

function text(body: string, contentType: string, requestId: string): Response {
  return new Response(body, {
    headers: {
      'content-type': contentType,
      'content-security-policy': DOCS_CSP,
      'cache-control': 'public, max-age=300',
      'x-request-id': requestId,
    },
  });
}

/** GET /v2/<domain>/docs: the page itself. */
export function docsPage(domain: string, requestId: string): Response {
  return text(page(domain), 'text/html; charset=utf-8', requestId);
}

/**
 * GET /v2/<domain>/docs/<file>: the start-up script, or one of Swagger UI's files from the assets binding (with its
 * ETag; a conditional request is passed on, so a browser revalidates with a 304). Any other name is NOT_FOUND.
 */
export async function docsFile(file: string, request: Request, assets: Fetcher, requestId: string): Promise<Response> {
  if (file === DOCS_INIT_FILE) return text(INIT_SCRIPT, 'text/javascript; charset=utf-8', requestId);
  if (!(DOCS_ASSET_FILES as readonly string[]).includes(file)) throw new ApiError('NOT_FOUND');
  const conditional = new Headers();
  const etag = request.headers.get('if-none-match');
  if (etag) conditional.set('if-none-match', etag);
  const asset = await assets.fetch(new Request(`https://assets.invalid/${file}`, { headers: conditional }));
  // A deployment without its assets directory (scripts/prepare-docs-assets.mjs not run) has no such file.
  if (asset.status !== 200 && asset.status !== 304) throw new ApiError('NOT_FOUND');
  const out = new Response(asset.body, asset);
  out.headers.set('content-security-policy', DOCS_CSP);
  out.headers.set('x-request-id', requestId);
  return out;
}
