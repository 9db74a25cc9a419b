import { ApiError } from '../errors';

/**
 * The API reference page (GET /v2/<domain>/docs): Swagger UI rendering the served OpenAPI document, whose "Try it
 * out" sends the key the caller enters under "Authorize" as X-API-Key. Public like the document: the page holds no
 * index data, and every call made from it needs the caller's key.
 *
 * Swagger UI's files are Text modules of the Worker (copied from swagger-ui-dist into generated/docs by
 * scripts/prepare-docs-assets.mjs), imported by this route on its first request: no other route evaluates them, and
 * no request pays for them but the page's. Nothing is loaded from another origin, and the page's CSP says so.
 */

interface DocsFile {
  type: string;
  load: () => Promise<{ default: string }>;
}

/** Swagger UI's files and their licence texts, by the name the page asks for. */
const VENDOR_FILES: Record<string, DocsFile> = {
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    load: () => import('../../generated/docs/swagger-ui-bundle.js.txt'),
  },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => import('../../generated/docs/swagger-ui.css.txt') },
  'swagger-ui-bundle.js.LICENSE.txt': {
    type: 'text/plain; charset=utf-8',
    load: () => import('../../generated/docs/swagger-ui-bundle.js.LICENSE.txt'),
  },
  LICENSE: { type: 'text/plain; charset=utf-8', load: () => import('../../generated/docs/LICENSE.txt') },
  NOTICE: { type: 'text/plain; charset=utf-8', load: () => import('../../generated/docs/NOTICE.txt') },
};
export const DOCS_VENDOR_FILES = Object.keys(VENDOR_FILES);
/** The page's own start-up script (the CSP allows no inline script). */
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
<noscript>This page needs JavaScript. The OpenAPI document it renders is at <a \
href="${openapi}">${openapi}</a>.</noscript>
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

function text(body: string, contentType: string, requestId: string, etag?: string): Response {
  return new Response(body, {
    headers: {
      'content-type': contentType,
      'content-security-policy': DOCS_CSP,
      'cache-control': 'public, max-age=300',
      'x-request-id': requestId,
      ...(etag ? { etag } : {}),
    },
  });
}

/** GET /v2/<domain>/docs: the page itself. */
export function docsPage(domain: string, requestId: string): Response {
  return text(page(domain), 'text/html; charset=utf-8', requestId);
}

/** Each vendor file's text and ETag (a digest of its bytes), read once per isolate. */
const loaded = new Map<string, Promise<{ body: string; etag: string }>>();

async function loadFile(file: DocsFile): Promise<{ body: string; etag: string }> {
  const body = (await file.load()).default;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { body, etag: `"${hex}"` };
}

/**
 * GET /v2/<domain>/docs/<file>: the start-up script, or one of Swagger UI's files with its ETag (a browser that
 * sends it back gets a 304). Any other name is NOT_FOUND.
 */
export async function docsFile(name: string, request: Request, requestId: string): Promise<Response> {
  if (name === DOCS_INIT_FILE) return text(INIT_SCRIPT, 'text/javascript; charset=utf-8', requestId);
  const file = Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
  if (!file) throw new ApiError('NOT_FOUND');
  let entry = loaded.get(name);
  if (!entry) loaded.set(name, (entry = loadFile(file)));
  const { body, etag } = await entry;
  if (request.headers.get('if-none-match') === etag) {
    return new Response(null, {
      status: 304,
      headers: { etag, 'cache-control': 'public, max-age=300', 'x-request-id': requestId },
    });
  }
  return text(body, file.type, requestId, etag);
}
