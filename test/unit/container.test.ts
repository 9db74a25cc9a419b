import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArtifactFormatError, decodeArtifact, encodeArtifact } from '../../src/format/container';

describe('artifact container', () => {
  it('round-trips a header and typed sections', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.integer({ min: -128, max: 127 })), fc.array(fc.float({ noNaN: true })), (header, i8, f32) => {
        const bytes = encodeArtifact('shard', header, { a: Int8Array.from(i8), b: Float32Array.from(f32) });
        const decoded = decodeArtifact(bytes, 'shard');
        expect(decoded.header).toEqual(JSON.parse(JSON.stringify(header)));
        expect(Array.from(decoded.sections.a!)).toEqual(i8);
        expect(Array.from(decoded.sections.b!)).toEqual(Array.from(Float32Array.from(f32)));
      }),
      { numRuns: 200 },
    );
  });

  it('rejects truncated bytes, a wrong magic and a wrong kind', () => {
    const bytes = encodeArtifact('directory', { x: 1 }, { s: new Uint32Array([1, 2, 3]) });
    expect(() => decodeArtifact(bytes.slice(0, bytes.length - 4), 'directory')).toThrow(ArtifactFormatError);
    const bad = bytes.slice();
    bad[0] = 0;
    expect(() => decodeArtifact(bad, 'directory')).toThrow(/magic/);
    expect(() => decodeArtifact(bytes, 'shard')).toThrow(/not a shard/);
  });
});
