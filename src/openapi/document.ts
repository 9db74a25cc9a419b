import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors';
import { FILTER_FIELDS } from '../../index-format/fields';
import { metadataFiltersSchema } from '../schema/metadata-filters';
import { NOTICE_CODES } from '../schema/notices';
import { IncludeOptions, LIMITS, ResearchRequest, RetrievalControls } from '../schema/request';
import * as R from '../schema/response';
import { OPENAPI_EXAMPLES } from './examples';
import { MCP_MAX_BODY_BYTES } from '../mcp/tool-schemas';
import { SERVICE_VERSION } from '../version';

/** The interface description's version (spec section 9): the package version (src/version.ts). */
export const API_VERSION = SERVICE_VERSION;

type JsonSchema = Record<string, unknown>;

/**
 * Named component schemas from zod registries. Requests are described as clients send them (`io: input`: fields
 * with defaults are optional), responses as the service returns them.
 */
function componentSchemas(): Record<string, JsonSchema> {
  const requests = z.registry<{ id: string }>();
  const filters = metadataFiltersSchema();
  requests.add(ResearchRequest.extend({ metadata_filters: filters.nullable().optional() }), { id: 'ResearchRequest' });
  requests.add(filters, { id: 'MetadataFilters' });
  requests.add(IncludeOptions, { id: 'IncludeOptions' });
  requests.add(RetrievalControls, { id: 'RetrievalControls' });

  const responses = z.registry<{ id: string }>();
  const named: [z.ZodType, string][] = [
    [R.ResearchResponse, 'ResearchResponse'],
    [R.Notice, 'Notice'],
    [R.EvidenceBudget, 'EvidenceBudget'],
    [R.ResponseSummary, 'ResponseSummary'],
    [R.Coverage, 'Coverage'],
    [R.CoverageRequirement, 'CoverageRequirement'],
    [R.RetrievalPlan, 'RetrievalPlan'],
    [R.AgentContext, 'AgentContext'],
    [R.MetadataDistribution, 'MetadataDistribution'],
    [R.ErrorResponse, 'ErrorResponse'],
    [R.ErrorDetail, 'ErrorDetail'],
    [R.MetadataFiltersListing, 'MetadataFiltersListing'],
    [R.FieldDescriptor, 'FieldDescriptor'],
    [R.AllowedValue, 'AllowedValue'],
  ];
  for (const [schema, id] of named) responses.add(schema, { id });

  const uri = (id: string) => `#/components/schemas/${id}`;
  const out: Record<string, JsonSchema> = {
    ...z.toJSONSchema(requests, { uri, io: 'input' }).schemas,
    ...z.toJSONSchema(responses, { uri, io: 'output' }).schemas,
  };
  // Each generated schema declares itself as a standalone document; inside components they are not.
  for (const schema of Object.values(out)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}

const errorCodesByStatus = (): Map<number, ErrorCode[]> => {
  const by = new Map<number, ErrorCode[]>();
  for (const [code, { status }] of Object.entries(ERRORS) as [ErrorCode, (typeof ERRORS)[ErrorCode]][]) {
    by.set(status, [...(by.get(status) ?? []), code]);
  }
  return by;
};

function noticeCodeTable(): string {
  const rows = Object.entries(NOTICE_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning} |`);
  return ['| notices[].code | meaning |', '|---|---|', ...rows].join('\n');
}

function errorCodeTable(): string {
  const rows = (Object.entries(ERRORS) as [ErrorCode, (typeof ERRORS)[ErrorCode]][]).map(
    ([code, e]) => `| \`${code}\` | ${e.status} | ${e.message} |`,
  );
  return ['| detail.code | HTTP status | message |', '|---|---|---|', ...rows].join('\n');
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Missing or invalid API key.',
  404: 'Unknown domain or route.',
  405: 'Method not allowed.',
  413: 'Request body too large.',
  415: 'Unsupported media type.',
  422: 'Validation error.',
  429: 'Rate limited.',
  500: 'Internal server error.',
  503: 'Service unavailable.',
};

/** Error responses of an operation: one entry per status, each listing its codes and an example per code. */
function errorResponses(statuses: number[]): Record<string, unknown> {
  const byStatus = errorCodesByStatus();
  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    const codes = byStatus.get(status);
    if (!codes) continue;
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error.'} detail.code: ${codes.join(', ')}.`,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorResponse' },
          examples: Object.fromEntries(
            codes.map((code) => [
              code,
              {
                value: {
                  status_code: status,
                  message: ERRORS[code].message,
                  detail: OPENAPI_EXAMPLES.errorDetail(code),
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

const json = (ref: string, examples?: Record<string, { summary: string; value: unknown }>) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${ref}` }, ...(examples ? { examples } : {}) },
});

const requestIdHeader = {
  'X-Request-Id': {
    description: 'The request_id of this request (also in the body and the service log).',
    schema: { type: 'string' },
  },
};

/** Operation groups, in the order a reader meets them. */
const TAGS = [
  { name: 'evidence', description: 'Questions in, cited evidence out; and the filters a question can use.' },
  { name: 'mcp', description: 'The same service as Model Context Protocol tools, for agents.' },
  { name: 'meta', description: 'The interface description itself, as a document and as a page to try calls from.' },
];

/** The operations, each with its tag, description, security and responses. */
function operations(): JsonSchema {
  return {
    '/query': {
      post: {
        operationId: 'runResearchQuery',
        tags: ['evidence'],
        summary: 'Run a query and return the selected response sections.',
        description: [
          'Answers a natural-language question with evidence chains from 10-K and 10-Q filings, each claim cited to a',
          'filing section. `mode` (basic, research, agentic_research) and `effort` choose how much is searched;',
          '`metadata_filters` (not in basic mode) narrow the filings; `include` picks the optional sections.',
          'The body is validated before any index is read, so a bad request never costs a search.',
        ].join(' '),
        security: [{ ApiKeyAuth: [] }],
        requestBody: { required: true, content: json('ResearchRequest', OPENAPI_EXAMPLES.requests) },
        responses: {
          '200': {
            description: 'Evidence and the requested sections.',
            headers: requestIdHeader,
            content: json('ResearchResponse', OPENAPI_EXAMPLES.responses),
          },
          ...errorResponses([401, 404, 405, 413, 415, 422, 429, 500, 503]),
        },
      },
    },
    '/metadata-filters': {
      get: {
        operationId: 'listMetadataFilters',
        tags: ['evidence'],
        summary: 'List metadata-filter fields, operators, limits, bounds and optional categorical values.',
        description: [
          'Describes every field `metadata_filters` accepts: its operators, per-field limits and numeric bounds, and,',
          'with `include_values=true`, the values present in the current index with their display values and aliases.',
          'Read it before building filters: the values come from the index, not from a fixed list.',
        ].join(' '),
        security: [{ ApiKeyAuth: [] }],
        parameters: [
          {
            name: 'include_values',
            in: 'query',
            required: false,
            description:
              'When true, include the values present in the index with display values and aliases. Default false.',
            schema: { type: 'boolean', default: false },
          },
          {
            name: 'field',
            in: 'query',
            required: false,
            description: 'Return one filter field by name.',
            schema: { type: 'string', enum: [...FILTER_FIELDS] },
          },
        ],
        responses: {
          '200': {
            description: 'Filter field descriptors.',
            headers: requestIdHeader,
            content: json('MetadataFiltersListing', OPENAPI_EXAMPLES.listing),
          },
          ...errorResponses([401, 404, 405, 422, 429, 500, 503]),
        },
      },
    },
    '/mcp': {
      post: {
        operationId: 'mcp',
        tags: ['mcp'],
        summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless): the same service as MCP tools.',
        description: [
          'JSON-RPC 2.0 messages of the Model Context Protocol (2025 revisions and 2026-07-28). Tools:',
          '`search_filing_evidence` (the arguments of POST /query: query, mode, effort, metadata_filters, ' +
            'max_evidence,',
          'max_evidence_tokens, default 8,000; text content = agent_context markdown, structured content = the',
          'ResearchResponse without agent_context) and `list_metadata_filters` (field, include_values; structured',
          'content = MetadataFiltersListing). Contract errors (422, 413, 500, 503) are tool results with `isError` and',
          'the envelope; 401, 413 for the whole message and 429 are HTTP answers in the envelope. Body cap:',
          `${MCP_MAX_BODY_BYTES.toLocaleString('en-US')} bytes per message, tool arguments at most ` +
            `${LIMITS.MAX_BODY_BYTES.toLocaleString('en-US')}.`,
          'Keys: X-API-Key or Authorization: Bearer <key>. GET and DELETE answer 405 (no server-initiated ' +
            'streams, no sessions).',
        ].join(' '),
        security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message (or batch).' } },
          },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC response (application/json, or one text/event-stream event).',
            content: {
              'application/json': { schema: { type: 'object' } },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
          '202': { description: 'A notification was accepted.' },
          ...errorResponses([401, 404, 405, 413, 429]),
        },
      },
    },
    ...metaOperations(),
  };
}

/** The public operations about the interface itself: the document, and the page that renders it. */
function metaOperations(): JsonSchema {
  return {
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['meta'],
        summary: 'This document. No API key needed.',
        description:
          'The OpenAPI 3.1.0 description of this service, generated from the schemas the service validates ' +
          'with. Public: it holds no index data.',
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI 3.1.0 document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errorResponses([404, 405]),
        },
      },
    },
    '/docs': {
      get: {
        operationId: 'getApiReference',
        tags: ['meta'],
        summary: 'This document as a page to read and try calls from. No API key needed.',
        description: [
          'An HTML page (Swagger UI, served with the service; nothing is loaded from another origin) rendering this',
          'document. Its "Try it out" sends the key entered under "Authorize" as X-API-Key; the key stays in the page.',
        ].join(' '),
        security: [],
        responses: {
          '200': {
            description: 'The HTML page.',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          ...errorResponses([404, 405]),
        },
      },
    },
  };
}

let cached: JsonSchema | undefined;

/** The OpenAPI 3.1.0 description of the service, generated from the zod schemas and the error table. */
export function openApiDocument(): JsonSchema {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'Filing Evidence Retrieval Service',
      version: API_VERSION,
      summary: 'Grounding evidence from S&P 500 10-K and 10-Q filings for LLM agents.',
      // Whoever operates a deployment answers for it; the name says so without inventing an address.
      contact: { name: 'Filing Evidence Retrieval Service operators' },
      description: [
        'Answers natural-language questions with cited evidence chains drawn from 10-K and 10-Q filings. It ' +
          'does not write answers.',
        '',
        `Limits: raw body ${LIMITS.MAX_BODY_BYTES.toLocaleString('en-US')} bytes; query ` +
          `${LIMITS.MAX_QUERY_CHARS.toLocaleString('en-US')} normalized characters; ` +
          `${LIMITS.MAX_FILTER_CONDITIONS} filter conditions, ${LIMITS.MAX_VALUES_PER_CONDITION} values per ` +
          `condition, ` +
          `${LIMITS.MAX_FILTER_VALUES_TOTAL} values in total, ${LIMITS.MAX_FILTER_VALUE_LENGTH} characters ` +
          `per value; ` +
          `${LIMITS.MAX_AGENTIC_REQUIREMENTS} agentic requirements.`,
        '',
        'Errors use the envelope `{status_code, message, detail}`; `detail.code` is stable and ' +
          '`detail.errors` lists validation failures by field path.',
        '',
        errorCodeTable(),
        '',
        'Notices (200 responses) carry a stable `code`; warning-level messages are repeated in `summary.warnings`.',
        '',
        noticeCodeTable(),
      ].join('\n'),
    },
    tags: TAGS,
    servers: [
      { url: '/v2/sp500', description: 'The sp500 domain (base address: version segment, then domain segment).' },
    ],
    security: [{ ApiKeyAuth: [] }],
    paths: operations(),
    components: {
      securitySchemes: {
        ApiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The caller key; a missing or wrong key gets 401 UNAUTHORIZED.',
        },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The same key as a bearer token; accepted on /mcp only (MCP clients that cannot set X-API-Key).',
        },
      },
      schemas: componentSchemas(),
    },
  };
  return cached;
}
