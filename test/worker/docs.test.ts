/**
 * The API reference page and its files, through the real Worker in workerd (the browser test, test/unit/start.test.ts,
 * opens it in Chromium). The other routes keep their own headers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_CSP } from '../../src/http/security-headers';
import { DOCS_CSP, DOCS_VENDOR_FILES } from '../../src/routes/docs';
import { BASE, call, expectConforms, expectEnvelope, ORIGIN, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

const BROWSER = { origin: 'https://notebook.example' };

describe('GET /v2/sp500/docs', () => {
  it('is an HTML page, public, with its own CSP and the CORS headers, naming only same-origin files', async () => {
    const res = await call('/docs', { key: null, headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const html = await res.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.sort()).toEqual(
      [
        'data:,',
        '/v2/sp500/openapi.json',
        '/v2/sp500/docs/swagger-ui.css',
        '/v2/sp500/docs/swagger-ui-bundle.js',
        '/v2/sp500/docs/init.js',
      ].sort(),
    );
    expect(html).toContain('data-openapi-url="/v2/sp500/openapi.json"');
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/); // no inline script: the CSP allows none
  });

  it("serves Swagger UI's files and their licence texts, with an ETag a browser revalidates against", async () => {
    const types: Record<string, RegExp> = {
      'swagger-ui-bundle.js': /^text\/javascript; charset=utf-8$/,
      'swagger-ui.css': /^text\/css; charset=utf-8$/,
    };
    expect(DOCS_VENDOR_FILES).toEqual(expect.arrayContaining(Object.keys(types)));
    for (const file of DOCS_VENDOR_FILES) {
      const res = await call(`/docs/${file}`, { key: null });
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(types[file] ?? /^text\/plain; charset=utf-8$/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = await res.text();
      expect(body.length, file).toBeGreaterThan(file in types ? 100_000 : 50);
      const etag = res.headers.get('etag');
      expect(etag, file).toMatch(/^"[0-9a-f]{24}"$/);
      const again = await call(`/docs/${file}`, { key: null, headers: { 'if-none-match': etag! } });
      expect(again.status, file).toBe(304);
      expect(await again.text()).toBe('');
      const stale = await call(`/docs/${file}`, { key: null, headers: { 'if-none-match': '"0"' } });
      expect(stale.status, file).toBe(200);
      await stale.arrayBuffer();
    }
    const bundle = await (await call('/docs/swagger-ui-bundle.js', { key: null })).text();
    expect(bundle).toContain('SwaggerUIBundle');
    expect(await (await call('/docs/LICENSE', { key: null })).text()).toContain('Apache License');
  });

  it('serves the start-up script, which points Swagger UI at the page, and no external validator', async () => {
    const res = await call('/docs/init.js', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).toContain('SwaggerUIBundle(');
    expect(script).toContain('validatorUrl: null');
    expect(script).not.toMatch(/https?:/);
  });

  it('answers other names, other methods and other domains in the error envelope', async () => {
    for (const path of ['/docs/nope.js', '/docs/toString', '/docs/__proto__', '/docs/swagger-ui.css/x']) {
      const { json } = await expectConforms(await call(path, { key: null }), 'GET', `${BASE}${path}`);
      expectEnvelope(json, 404, 'NOT_FOUND');
    }
    for (const path of ['/docs', '/docs/swagger-ui.css']) {
      const { json } = await expectConforms(await call(path, { method: 'POST' }), 'POST', `${BASE}${path}`);
      expectEnvelope(json, 405, 'METHOD_NOT_ALLOWED');
    }
    for (const path of ['/docs', '/docs/init.js']) {
      const url = `${ORIGIN}/v2/nasdaq${path}`;
      const { json } = await expectConforms(await call(url, { key: null }), 'GET', url);
      expectEnvelope(json, 404, 'UNKNOWN_DOMAIN');
    }
  });
});

describe('the other routes', () => {
  it('keep the API CSP, nosniff and CORS, on answers and errors alike', async () => {
    const answers = [
      await call('/metadata-filters', { headers: BROWSER }),
      await call('/openapi.json', { key: null, headers: BROWSER }),
      await call('/metadata-filters', { key: 'wrong', headers: BROWSER }),
      await call('/nowhere', { headers: BROWSER }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 404]);
    for (const res of answers) {
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});
