/**
 * The most a Worker reads of a body it does not want: 16 times the largest body it accepts (src/schema/request.ts,
 * MAX_BODY_BYTES). Beyond it the rest is cancelled, and the runtime closes the connection: a client sending that
 * much to a 64 KiB API gets no keep-alive.
 */
export const DRAIN_LIMIT_BYTES = 1 << 20;

/**
 * Reads a body to its end without keeping it, up to `limit` bytes, then cancels the rest. An answer sent while the
 * client is still uploading must leave the request fully read: when the Worker cancelled the body or left it half
 * read instead, `wrangler dev` answered 500 "Network connection lost." or dropped the connection for some of those
 * requests (test/unit/early-answers.test.ts). Draining costs no CPU to speak of: the bytes are dropped as they arrive.
 */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit = DRAIN_LIMIT_BYTES): Promise<void> {
  try {
    for (let total = 0; total <= limit; ) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away; there is nothing left to read.
  }
}

/**
 * Drains a request body the Worker answered without reading (401 before the body is touched, 415, 413 from
 * Content-Length, 429 on /mcp). A body a route read, or is reading (locked), is that route's to finish: routes
 * settle their own reads before answering (src/router.ts, src/http/read-body.ts).
 */
export async function releaseUnreadBody(request: Request): Promise<void> {
  const body = request.body;
  if (!body || request.bodyUsed || body.locked) return;
  await drain(body.getReader());
}
