import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/errors';
import { API_VERSION, openApiDocument } from '../../src/openapi/document';
import { NOTICE_CODES } from '../../src/schema/notices';
import { openApiErrors } from '../support/openapi';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const doc = openApiDocument() as any;

describe('GET /v2/sp500/openapi.json document', () => {
  it('is a valid OpenAPI 3.1.0 document according to a standard validator', async () => {
    const result = await new OpenApiValidator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe('7.22.0');
  });

  it('declares both operations with their ids and the X-API-Key security scheme on each', () => {
    expect(doc.paths['/query'].post.operationId).toBe('runResearchQuery');
    expect(doc.paths['/metadata-filters'].get.operationId).toBe('listMetadataFilters');
    expect(doc.components.securitySchemes.ApiKeyAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    for (const op of [doc.paths['/query'].post, doc.paths['/metadata-filters'].get])
      expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
  });

  it('lists the public routes (the document and the API reference page) with no security requirement', () => {
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    const page = doc.paths['/docs'].get;
    expect(page.operationId).toBe('getApiReference');
    expect(page.security).toEqual([]);
    expect(Object.keys(page.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(page.responses).sort()).toEqual(['200', '404', '405']);
  });

  it('documents every error code of the one error table, under its status', () => {
    for (const [code, { status }] of Object.entries(ERRORS)) {
      expect(doc.info.description).toContain(`\`${code}\``);
      const documented = [doc.paths['/query'].post, doc.paths['/metadata-filters'].get].some(
        (op) => op.responses[String(status)]?.content['application/json'].examples[code],
      );
      expect(documented, `${code} (${status}) has an example response`).toBe(true);
    }
  });

  it('documents every notice code the service can return', () => {
    // Notices are built only by NOTICES (src/schema/notices.ts), whose codes are typed as NOTICE_CODES keys.
    const used = new Set<string>();
    const text = readFileSync('src/schema/notices.ts', 'utf8');
    for (const m of text.matchAll(/(?:info|warning)\(\s*'([A-Z][A-Z_]+)'/g)) used.add(m[1]!);
    expect(used.size).toBeGreaterThan(5);
    expect([...used].sort()).toEqual(Object.keys(NOTICE_CODES).sort());
    for (const code of used) expect(doc.info.description).toContain(`\`${code}\``);
    for (const file of [...sourceFiles('src'), ...sourceFiles('index-format')]) {
      if (file.endsWith('schema/notices.ts')) continue;
      expect(readFileSync(file, 'utf8'), `${file} writes a notice itself`).not.toMatch(/code: '[A-Z][A-Z_]+'/);
    }
  });

  it('generates the request schema from the zod schemas: strict objects, enums and defaults', () => {
    const req = doc.components.schemas.ResearchRequest;
    expect(req.additionalProperties).toBe(false);
    expect(req.required).toEqual(['query']);
    expect(req.properties.mode.enum ?? req.properties.mode.anyOf).toBeDefined();
    expect(doc.components.schemas.IncludeOptions.additionalProperties).toBe(false);
    expect(doc.components.schemas.IncludeOptions.properties.evidence_format.default).toBe('rendered');
    expect(doc.components.schemas.MetadataFilters.additionalProperties).toBe(false);
    expect(Object.keys(doc.components.schemas.MetadataFilters.properties)).toHaveLength(8);
  });

  it('has examples that conform to their own schemas', () => {
    const checks: [string, unknown][] = [];
    for (const ex of Object.values<any>(doc.paths['/query'].post.requestBody.content['application/json'].examples))
      checks.push(['ResearchRequest', ex.value]);
    for (const ex of Object.values<any>(doc.paths['/query'].post.responses['200'].content['application/json'].examples))
      checks.push(['ResearchResponse', ex.value]);
    for (const ex of Object.values<any>(
      doc.paths['/metadata-filters'].get.responses['200'].content['application/json'].examples,
    ))
      checks.push(['MetadataFiltersListing', ex.value]);
    for (const op of [doc.paths['/query'].post, doc.paths['/metadata-filters'].get]) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (status === '200') continue;
        for (const ex of Object.values<any>(r.content['application/json'].examples))
          checks.push(['ErrorResponse', ex.value]);
      }
    }
    expect(checks.length).toBeGreaterThan(15);
    for (const [component, value] of checks) expect(openApiErrors(component, value), component).toEqual([]);
  });

  it('rejects what the contract rejects (the validator helper is not vacuous)', () => {
    expect(openApiErrors('ResearchRequest', { query: 'x', filters: {} })).not.toEqual([]);
    expect(openApiErrors('ResearchRequest', { query: 'x', metadata_filters: { or: [] } })).not.toEqual([]);
    expect(openApiErrors('ResearchResponse', { request_id: 'r', extra: 1 })).not.toEqual([]);
    expect(openApiErrors('ErrorResponse', { message: 'no status' })).not.toEqual([]);
  });
});
