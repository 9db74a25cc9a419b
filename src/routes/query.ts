import { runQuery, type ValidRequest } from '../core/run-query';
import type { IndexReader } from '../../index-format/index-reader';
import { ApiError } from '../errors';
import { rejectProtoKeys } from '../http/json-guard';
import { readBodyCapped } from '../http/read-body';
import { parseMetadataFilters } from '../filters/parse';
import { zodIssuesToErrors } from '../schema/field-errors';
import { LIMITS, ResearchRequest } from '../schema/request';
import { codePointLength, normalizeQuery } from '../../index-format/normalize';

/**
 * `application/json`, optionally with `charset=utf-8` (any case); JSON's only interchange encoding is UTF-8
 * (RFC 8259), so another charset is refused rather than silently misread.
 */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every(
    (p) => p === '' || p.replace(/\s+/g, '') === 'charset=utf-8' || p.replace(/\s+/g, '') === 'charset="utf-8"',
  );
}

/**
 * Body bytes -> validated request, before any index I/O, so a bad request is never answered with a 503.
 * Every failure is a 422 (413 for size, 415 for a non-JSON content type) with a stable code.
 */
export async function parseQueryRequest(request: Request): Promise<ValidRequest> {
  if (!isJsonContentType(request.headers.get('content-type'))) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const raw = await readBodyCapped(request, LIMITS.MAX_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(raw));
  } catch {
    throw new ApiError('MALFORMED_JSON');
  }
  return validateQueryBody(json);
}

/** A parsed JSON body -> validated request (every check after JSON parsing); the MCP tool uses it too. */
export function validateQueryBody(json: unknown): ValidRequest {
  rejectProtoKeys(json);
  if (json && typeof json === 'object' && !Array.isArray(json) && Object.hasOwn(json, 'filters')) {
    throw new ApiError('LEGACY_FILTERS_KEY', { errors: [{ path: 'filters', message: 'use metadata_filters' }] });
  }
  const parsed = ResearchRequest.safeParse(json);
  if (!parsed.success) throw new ApiError('VALIDATION_ERROR', { errors: zodIssuesToErrors(parsed.error.issues) });
  const normalizedQuery = normalizeQuery(parsed.data.query);
  if (!normalizedQuery)
    throw new ApiError('QUERY_EMPTY', { errors: [{ path: 'query', message: 'empty after normalization' }] });
  if (codePointLength(normalizedQuery) > LIMITS.MAX_QUERY_CHARS) {
    throw new ApiError('QUERY_TOO_LONG', {
      errors: [{ path: 'query', message: `at most ${LIMITS.MAX_QUERY_CHARS} characters after normalization` }],
    });
  }
  const filters = parsed.data.metadata_filters;
  if (filters && Object.keys(filters).length) {
    if (parsed.data.mode === 'basic') {
      throw new ApiError('FILTERS_NOT_ALLOWED_IN_BASIC_MODE', {
        errors: [{ path: 'metadata_filters', message: 'not accepted in basic mode' }],
      });
    }
    // Fields, operators, formats and limits; company names and sector spellings are resolved later with the catalog.
    parseMetadataFilters(filters, null);
  }
  return { ...parsed.data, normalizedQuery };
}

export async function answerQuery(valid: ValidRequest, openIndex: () => Promise<IndexReader>, requestId: string) {
  const reader = await openIndex();
  const outcome = await runQuery(reader, valid);
  return {
    body: { request_id: requestId, ...outcome.body },
    trace: outcome.trace,
    mode: valid.mode,
    effort: valid.effort,
  };
}
