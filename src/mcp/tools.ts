import type { McpServer } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { ValidRequest } from '../core/run-query';
import { ApiError, toErrorBody } from '../errors';
import type { ResearchResponse, MetadataFiltersListing } from '../schema/response';
import { zodIssuesToErrors } from '../schema/field-errors';
import {
  LIST_FILTERS_TOOL_DESCRIPTION,
  LIST_FILTERS_TOOL_OUTPUT,
  ListFiltersToolArgs,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_OUTPUT,
  SearchToolArgs,
} from './tool-schemas';

/** What the tools need from the service; the route supplies the real query path, tests may supply their own. */
export interface ToolBackend {
  requestId: string;
  /** The HTTP body validator (routes/query.ts): the same codes and paths as POST /query. */
  validateQuery(body: unknown): ValidRequest;
  answerQuery(valid: ValidRequest): Promise<ResearchResponse>;
  /** GET /metadata-filters with these query parameters (validated by the route's own parser). */
  listFilters(params: URLSearchParams): Promise<MetadataFiltersListing>;
  /** Called once per tool call, for the request's log line. */
  onToolCall(tool: string, errorCode: string | null): void;
  /** Logs an unexpected error (the tool answers INTERNAL without details). */
  onInternalError(err: unknown): void;
}

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/**
 * A standard schema that advertises the contract's JSON schema in tools/list but accepts any value, so the SDK
 * hands the raw arguments to the tool and the HTTP route's own validators report errors with the contract's
 * codes and paths (a VALIDATION_ERROR envelope, not a generic JSON-RPC error).
 */
function advertisedSchema(schema: z.ZodType) {
  const std = schema['~standard'];
  return {
    '~standard': {
      vendor: 'filing-evidence-service',
      version: 1 as const,
      validate: (value: unknown) => ({ value }),
      jsonSchema: std.jsonSchema,
    },
  };
}

/** POST /query's body paths -> the tool's argument names, so an error names what the agent actually sent. */
function toToolPath(path: string): string {
  return path.replace(/^retrieval\./, '');
}

/** A contract error as a tool error: the envelope's message and code, and the envelope itself as JSON. */
function toolError(err: ApiError, requestId: string): ToolResult {
  const errors = err.errors?.map((e) => ({ ...e, path: toToolPath(e.path) }));
  const envelope = toErrorBody(new ApiError(err.code, { message: err.message, errors, extra: err.extra }), requestId);
  const details = errors?.map((e) => `\n- ${e.path}: ${e.message}`).join('') ?? '';
  return {
    isError: true,
    content: [
      { type: 'text', text: `${err.code} (${err.status}): ${err.message}${details}\n\n${JSON.stringify(envelope)}` },
    ],
  };
}

async function run(backend: ToolBackend, tool: string, work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    const result = await work();
    backend.onToolCall(tool, null);
    return result;
  } catch (err) {
    const apiError = err instanceof ApiError ? err : new ApiError('INTERNAL');
    if (!(err instanceof ApiError)) backend.onInternalError(err);
    backend.onToolCall(tool, apiError.code);
    return toolError(apiError, backend.requestId);
  }
}

/** Tool arguments -> the POST /query body they stand for. */
export function searchArgsToQueryBody(raw: unknown): unknown {
  const parsed = SearchToolArgs.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new ApiError('VALIDATION_ERROR', { errors: zodIssuesToErrors(parsed.error.issues) });
  }
  const a = parsed.data;
  return {
    query: a.query,
    mode: a.mode,
    effort: a.effort,
    ...(a.metadata_filters ? { metadata_filters: a.metadata_filters } : {}),
    include: { evidence: true, evidence_instructions: true, agent_context: true, summary: true },
    retrieval: { max_evidence_tokens: a.max_evidence_tokens, max_evidence: a.max_evidence ?? null },
  };
}

/** The two tools, registered on a server the caller created (the route imports the SDK on first use). */
export function registerTools(server: McpServer, backend: ToolBackend): void {
  server.registerTool(
    'search_filing_evidence',
    {
      title: 'Search filing evidence',
      description: SEARCH_TOOL_DESCRIPTION,
      inputSchema: advertisedSchema(SearchToolArgs),
      outputSchema: SEARCH_TOOL_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    (args: unknown) =>
      run(backend, 'search_filing_evidence', async () => {
        const valid = backend.validateQuery(searchArgsToQueryBody(args));
        const response = await backend.answerQuery(valid);
        // agent_context travels as the text content; leaving it out of the structured copy avoids sending the
        // evidence a third time.
        const { agent_context, ...structured } = response;
        return { content: [{ type: 'text', text: agent_context?.text ?? '' }], structuredContent: structured };
      }),
  );

  server.registerTool(
    'list_metadata_filters',
    {
      title: 'List metadata filters',
      description: LIST_FILTERS_TOOL_DESCRIPTION,
      inputSchema: advertisedSchema(ListFiltersToolArgs),
      outputSchema: LIST_FILTERS_TOOL_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    (args: unknown) =>
      run(backend, 'list_metadata_filters', async () => {
        const parsed = ListFiltersToolArgs.safeParse(args ?? {});
        if (!parsed.success)
          throw new ApiError('INVALID_PARAMETER', { errors: zodIssuesToErrors(parsed.error.issues) });
        const params = new URLSearchParams();
        if (parsed.data.field) params.set('field', parsed.data.field);
        if (parsed.data.include_values) params.set('include_values', 'true');
        const listing = await backend.listFilters(params);
        return { content: [{ type: 'text', text: JSON.stringify(listing) }], structuredContent: listing };
      }),
  );
}
