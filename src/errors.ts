/**
 * One table of error codes: status and default message. The router's catch is the only place that turns an
 * ApiError into a body; anything else becomes INTERNAL after one structured log line.
 */
export const ERRORS = {
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid API key.' },
  UNKNOWN_DOMAIN: { status: 404, message: 'Unknown domain.' },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed for this route.' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body too large (limit 65,536 bytes).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json.' },
  MALFORMED_JSON: { status: 422, message: 'Request body is not valid JSON.' },
  VALIDATION_ERROR: { status: 422, message: 'Request validation failed.' },
  LEGACY_FILTERS_KEY: { status: 422, message: 'The "filters" key is not accepted; use "metadata_filters".' },
  FILTERS_NOT_ALLOWED_IN_BASIC_MODE: {
    status: 422,
    message: 'metadata_filters are not accepted in basic mode; set mode to "research" or "agentic_research".',
  },
  FILTER_EXPRESSION_UNSUPPORTED: {
    status: 422,
    message: 'Boolean filter expressions (and, or, not, field) are not supported; use one key per filter field.',
  },
  QUERY_TOO_LONG: { status: 422, message: 'Query exceeds 4,000 normalized characters.' },
  QUERY_EMPTY: { status: 422, message: 'Query is empty after normalization.' },
  INVALID_FILTER: { status: 422, message: 'Invalid metadata filter.' },
  FILTER_LIMIT_EXCEEDED: { status: 422, message: 'Metadata filter limits exceeded.' },
  INVALID_PARAMETER: { status: 422, message: 'Invalid query parameter.' },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests for this API key; retry after the number of seconds in Retry-After.',
  },
  INDEX_UNAVAILABLE: { status: 503, message: 'The evidence index is unavailable; retry later.' },
  INTERNAL: { status: 500, message: 'Internal server error.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly extra?: Record<string, unknown>;
  /** Response headers that belong to this error (e.g. Retry-After on RATE_LIMITED). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: {
      message?: string;
      errors?: FieldError[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(opts.message ?? ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

export interface ErrorBody {
  status_code: number;
  message: string;
  detail: { code: ErrorCode; errors?: FieldError[]; request_id?: string; [key: string]: unknown } | null;
}

export function toErrorBody(err: ApiError, requestId?: string): ErrorBody {
  return {
    status_code: err.status,
    message: err.message,
    detail: {
      code: err.code,
      ...(err.errors ? { errors: err.errors } : {}),
      ...(err.extra ?? {}),
      ...(requestId ? { request_id: requestId } : {}),
    },
  };
}
