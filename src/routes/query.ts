import type { z } from 'zod';
import { runQuery, type ValidRequest } from '../core/run-query';
import type { IndexReader } from '../core/index-reader';
import { ApiError, type FieldError } from '../errors';
import { rejectProtoKeys } from '../http/json-guard';
import { readBodyCapped } from '../http/read-body';
import { LIMITS, ResearchRequest } from '../schema/request';
import { codePointLength, normalizeQuery } from '../text/normalize';

export function zodIssuesToErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
    if (issue.code === 'unrecognized_keys') {
      return { path: path || '(root)', message: `unknown key(s): ${issue.keys.join(', ')}` };
    }
    return { path: path || '(root)', message: issue.message };
  });
}

/** Body bytes -> validated request. Every failure is a 422 (413 for size) with a stable code. */
export async function parseQueryRequest(request: Request): Promise<ValidRequest> {
  const raw = await readBodyCapped(request, LIMITS.MAX_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(raw));
  } catch {
    throw new ApiError('MALFORMED_JSON');
  }
  rejectProtoKeys(json);
  if (json && typeof json === 'object' && !Array.isArray(json) && Object.hasOwn(json, 'filters')) {
    throw new ApiError('LEGACY_FILTERS_KEY', { errors: [{ path: 'filters', message: 'use metadata_filters' }] });
  }
  const parsed = ResearchRequest.safeParse(json);
  if (!parsed.success) throw new ApiError('VALIDATION_ERROR', { errors: zodIssuesToErrors(parsed.error.issues) });
  const normalizedQuery = normalizeQuery(parsed.data.query);
  if (!normalizedQuery) throw new ApiError('QUERY_EMPTY', { errors: [{ path: 'query', message: 'empty after normalization' }] });
  if (codePointLength(normalizedQuery) > LIMITS.MAX_QUERY_CHARS) {
    throw new ApiError('QUERY_TOO_LONG', { errors: [{ path: 'query', message: `at most ${LIMITS.MAX_QUERY_CHARS} characters after normalization` }] });
  }
  // Checked here, before any index I/O, so the 422 never turns into a 503 when the index is down.
  const filters = parsed.data.metadata_filters;
  if (parsed.data.mode === 'basic' && filters && Object.keys(filters).length) {
    throw new ApiError('FILTERS_NOT_ALLOWED_IN_BASIC_MODE', { errors: [{ path: 'metadata_filters', message: 'not accepted in basic mode' }] });
  }
  return { ...parsed.data, normalizedQuery };
}

export async function handleQuery(request: Request, openIndex: () => Promise<IndexReader>, requestId: string) {
  const valid = await parseQueryRequest(request);
  const reader = await openIndex();
  const outcome = await runQuery(reader, valid);
  return { body: { request_id: requestId, ...outcome.body }, trace: outcome.trace, mode: valid.mode, effort: valid.effort };
}
