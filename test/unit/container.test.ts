import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArtifactFormatError, decodeArtifact, encodeArtifact } from '../../index-format/container';

describe('artifact container', () => {
  it('round-trips a header and typed sections', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.integer({ min: -128, max: 127 })),
        fc.array(fc.float({ noNaN: true })),
        (header, i8, f32) => {
          const bytes = encodeArtifact('shard', header, { a: Int8Array.from(i8), b: Float32Array.from(f32) });
          const decoded = decodeArtifact(bytes, 'shard');
          expect(decoded.header).toEqual(JSON.parse(JSON.stringify(header)));
          expect(Array.from(decoded.sections.a!)).toEqual(i8);
          expect(Array.from(decoded.sections.b!)).toEqual(Array.from(Float32Array.from(f32)));
        },
      ),
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

  it('round-trips a deflated header and deflated sections, stored in fewer bytes, the same values as plain', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3000 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 })),
        (header, small, wide) => {
          const sections = { a: Uint16Array.from(small), b: Uint32Array.from(wide) };
          const plain = decodeArtifact(encodeArtifact('terms', header, sections), 'terms');
          const deflated = decodeArtifact(
            encodeArtifact('terms', header, sections, [], { header: true, sections: ['a', 'b'] }),
            'terms',
          );
          expect(deflated.header).toEqual(plain.header);
          expect(Array.from(deflated.sections.a!)).toEqual(small);
          expect(Array.from(deflated.sections.b!)).toEqual(wide);
        },
      ),
      { numRuns: 100 },
    );
    // Repetitive columns deflate (and are stored so); random ones do not pay and stay plain.
    const repetitive = new Uint16Array(4000).fill(7);
    const random = Uint32Array.from({ length: 1000 }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0);
    const bytes = encodeArtifact('shard', { n: 1 }, { r: repetitive, x: random }, ['r', 'x'], { sections: ['r', 'x'] });
    const head = decodeArtifact(bytes, 'shard');
    expect(head.places.r!.deflated).toBe(true);
    expect(head.places.r!.bytes).toBeLessThan(repetitive.byteLength / 10);
    expect(head.places.x!.deflated).toBeUndefined();
    expect(head.places.x!.bytes).toBe(random.byteLength);
    expect(Array.from(head.sections.r!)).toEqual(Array.from(repetitive));
  });

  it('rejects a deflated section or header that does not inflate to its stated size', () => {
    const bytes = encodeArtifact('shard', { n: 1 }, { r: new Uint16Array(4000).fill(7) }, [], {
      header: true,
      sections: ['r'],
    });
    const at = decodeArtifact(bytes, 'shard').places.r!.start;
    const corrupt = bytes.slice();
    corrupt[at + 1]! ^= 0xff;
    expect(() => decodeArtifact(corrupt, 'shard')).toThrow(ArtifactFormatError);
    const badHeader = bytes.slice();
    badHeader[50]! ^= 0xff;
    expect(() => decodeArtifact(badHeader, 'shard')).toThrow(ArtifactFormatError);
  });
});
