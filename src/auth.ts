import { ApiError } from './errors';

const HEX = /^[0-9a-f]{64}$/;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares two equal-length strings without an early exit, so timing does not reveal a matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The key a request presents: `X-API-Key`, or, where the route allows it (the MCP endpoint, because many MCP
 * clients can send `Authorization` but not a custom header), `Authorization: Bearer <key>`. X-API-Key wins when
 * both are sent.
 */
function presentedKey(request: Request, allowBearer: boolean): string | null {
  const key = request.headers.get('x-api-key');
  if (key || !allowBearer) return key;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1] ?? null;
}

/**
 * Checks the presented key against the configured SHA-256 hashes. Keys are never stored or logged in clear; every
 * configured hash is compared (no short-circuit) and a missing or wrong key gets the same 401. Returns the key's
 * SHA-256 (hex), the only form of the key the rest of the Worker sees (rate-limit key, log key_id).
 */
export async function requireApiKey(
  request: Request,
  configuredHashes: string | undefined,
  opts: { allowBearer?: boolean } = {},
): Promise<string> {
  const key = presentedKey(request, opts.allowBearer ?? false);
  const hashes = (configuredHashes ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => HEX.test(h));
  if (!key || !hashes.length) throw new ApiError('UNAUTHORIZED');
  const presented = await sha256Hex(key);
  let ok = false;
  for (const h of hashes) ok = constantTimeEqual(presented, h) || ok;
  if (!ok) throw new ApiError('UNAUTHORIZED');
  return presented;
}
