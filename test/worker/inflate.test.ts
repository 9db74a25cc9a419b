// The container's inflate and CRC-32 run on workerd's node:zlib in the Worker and on Node's in the builder and unit
// tests. This runs the round trip inside workerd, at sizes that span several of zlib's output chunks: a size bound
// on inflate (maxOutputLength) rejected valid 42,719-byte sections there while Node accepted them.
import { describe, expect, it } from 'vitest';
import { decodeArtifact, encodeArtifact } from '../../index-format/container';
import { crc32 } from '../../index-format/crc32';

/** Compressible but not trivial bytes. */
function column(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((i * 31) ^ (i >> 7)) & 0x3f;
  return out;
}

describe('artifact container in workerd', () => {
  it('inflates deflated sections and headers of every size back to their bytes', () => {
    for (const n of [1_000, 16_384, 16_385, 42_719, 100_000, 300_001]) {
      const bytes = column(n);
      const header = { text: 'x'.repeat(n >> 4) };
      const encoded = encodeArtifact('terms', header, { a: bytes }, [], { header: true, sections: ['a'] });
      expect(encoded.byteLength).toBeLessThan(n / 2);
      const decoded = decodeArtifact(encoded, 'terms');
      expect(decoded.header).toEqual(header);
      expect(decoded.sections.a).toEqual(bytes);
    }
  });

  it('computes the standard CRC-32, of views into larger buffers too', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const big = column(1000);
    expect(crc32(big.subarray(100, 200))).toBe(crc32(big.slice(100, 200)));
  });
});
