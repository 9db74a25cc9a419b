import { ApiError } from '../errors';
import { drain } from './unread-body';

/**
 * Reads a request body up to `limit` bytes, counting while streaming: a lying or absent Content-Length cannot
 * make the Worker buffer more than the limit. A declared length over the limit is refused before reading; the
 * Worker drains that body before answering (src/index.ts, src/http/unread-body.ts).
 */
export async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('BODY_TOO_LARGE');
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // The rest is read and dropped (bounded), so the 413 goes out on a fully read request.
      await drain(reader);
      throw new ApiError('BODY_TOO_LARGE');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
