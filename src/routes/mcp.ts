import type { IndexReader } from '../../index-format/index-reader';
import { ApiError } from '../errors';
import { readBodyCapped } from '../http/read-body';
import { MCP_MAX_BODY_BYTES } from '../mcp/tool-schemas';
import { registerTools, type ToolBackend } from '../mcp/tools';
import { LIMITS } from '../schema/request';
import { listMetadataFilters, parseListingParams } from './metadata-filters';
import { answerQuery, validateQueryBody } from './query';
import { SERVICE_NAME, SERVICE_VERSION } from '../version';

const SERVER_INFO = { name: SERVICE_NAME, version: SERVICE_VERSION };

type Sdk = typeof import('@modelcontextprotocol/server');
let sdk: Promise<Sdk> | undefined;
/**
 * The SDK is imported on the first MCP request, not at module scope: importing it eagerly adds its module
 * evaluation to every isolate's startup, including isolates that only ever serve POST /query.
 */
const loadSdk = () => (sdk ??= import('@modelcontextprotocol/server'));

export interface McpContext {
  requestId: string;
  openIndex: () => Promise<IndexReader>;
  log: Record<string, unknown>;
}

/** One stateless MCP exchange (Streamable HTTP, POST): any isolate can answer any request of a session. */
export async function handleMcp(request: Request, ctx: McpContext): Promise<Response> {
  const body = await readBodyCapped(request, MCP_MAX_BODY_BYTES);
  const args = new TextEncoder().encode(JSON.stringify(extractToolArguments(body)));
  if (args.byteLength > LIMITS.MAX_BODY_BYTES) throw new ApiError('BODY_TOO_LARGE');

  const { McpServer, createMcpHandler } = await loadSdk();
  const backend: ToolBackend = {
    requestId: ctx.requestId,
    validateQuery: validateQueryBody,
    answerQuery: async (valid) => {
      const { body: answer, trace } = await answerQuery(valid, ctx.openIndex, ctx.requestId);
      Object.assign(ctx.log, {
        mode: valid.mode,
        effort: valid.effort,
        shape: trace.analysis.shape,
        searched_shards: trace.searchedShards.length,
        passes: trace.passes.filter((x) => !x.skipped).length,
        evidence_count: answer.summary?.evidence_count,
      });
      return answer;
    },
    listFilters: async (params) => {
      const url = new URL(`https://mcp.invalid/?${params}`);
      const parsed = parseListingParams(url);
      return listMetadataFilters(await ctx.openIndex(), parsed);
    },
    onToolCall: (tool, errorCode) => {
      ctx.log.tool = tool;
      if (errorCode) ctx.log.tool_error_code = errorCode;
    },
    onInternalError: (err) =>
      console.error(
        JSON.stringify({
          level: 'error',
          request_id: ctx.requestId,
          error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        }),
      ),
  };
  const handler = createMcpHandler(() => {
    const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
    registerTools(server, backend);
    return server;
  });
  // The body was consumed by the cap; the SDK reads the same bytes from a fresh request.
  const response = await handler.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body }));
  // The SDK may answer with a body it is still writing; waiting for it keeps the tool's outcome (tool, mode,
  // error code) on this request's one log line. Our tools send nothing before their result, so nothing streams.
  return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
}

/** `params.arguments` of a tools/call message (or of each in a batch), or null: only tool arguments are capped. */
function extractToolArguments(body: Uint8Array): unknown {
  try {
    const message = JSON.parse(new TextDecoder().decode(body)) as unknown;
    const messages = Array.isArray(message) ? message : [message];
    return messages.map((m) =>
      m && typeof m === 'object' ? ((m as { params?: { arguments?: unknown } }).params?.arguments ?? null) : null,
    );
  } catch {
    return null; // not JSON: the SDK answers with a JSON-RPC parse error
  }
}
