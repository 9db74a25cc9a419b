// PackedLines (a shard's term dictionary and row labels held as one string) against the plain array it replaces:
// the same lines, the same order as JavaScript's string comparison, the same answers to a lookup.
import { describe, expect, it } from 'vitest';
import { ArtifactFormatError } from '../../index-format/container';
import { PackedLines } from '../../index-format/packed-lines';
import fc from 'fast-check';

// Words over a small alphabet (so prefixes and near-misses are common), non-ASCII and astral characters included.
const wordArb = fc
  .array(fc.constantFrom('a', 'b', 'c', 'z', '0', '9', '-', 'é', 'ß', '€', '中', '😀'), { maxLength: 5 })
  .map((cs) => cs.join(''));

describe('PackedLines', () => {
  it(`reads every line and finds every word as a sorted array and indexOf would (random words, non-ASCII \
included)`, () => {
    fc.assert(
      fc.property(
        fc.array(wordArb, { minLength: 1, maxLength: 60 }),
        fc.array(wordArb, { maxLength: 30 }),
        (raw, probes) => {
          const words = [...new Set(raw)].filter((w) => w !== '').sort();
          if (!words.length) return;
          const packed = PackedLines.of(words.join('\n'), words.length, 'words');
          expect(packed.toArray()).toEqual(words);
          for (const probe of [...words, ...probes]) expect(packed.find(probe)).toBe(words.indexOf(probe));
        },
      ),
    );
  });

  it('compares as JavaScript strings do (UTF-16 code units), so the builder sort and the lookup agree', () => {
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 2, maxLength: 40 }), (words) => {
        const packed = PackedLines.of(words.join('\n'), words.length, 'words');
        words.forEach((w, i) => {
          for (const other of words)
            expect(Math.sign(packed.compare(i, other))).toBe(w < other ? -1 : w > other ? 1 : 0);
        });
      }),
    );
  });

  it('tells empty lines from others', () => {
    const labels = PackedLines.of('net sale\n\ntotal asset', 3, 'labels');
    expect([0, 1, 2].map((i) => labels.isEmpty(i))).toEqual([false, true, false]);
    expect(labels.line(2)).toBe('total asset');
  });

  it('says whether every word of a line is one of a list, as splitting the line would', () => {
    // Prefixes and extensions of one another, so a comparison that stops early or ignores length fails.
    const pool = ['net', 'ne', 'nets', 'sale', 'sales', 'total', 'asset', 'é', 'éé', 'x'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...pool), { maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.subarray(pool),
        (lines, set) => {
          const words = new Set(set);
          const packed = PackedLines.of(lines.map((l) => l.join(' ')).join('\n'), lines.length, 'labels');
          lines.forEach((l, i) => {
            expect(packed.everyWordIn(i, set)).toBe(l.length > 0 && l.every((w) => words.has(w)));
          });
        },
      ),
    );
  });

  it('rejects text with more or fewer lines than its header says', () => {
    expect(() => PackedLines.of('a\nb\nc', 2, 'x')).toThrow(ArtifactFormatError);
    expect(() => PackedLines.of('a\nb', 3, 'x')).toThrow(/2 lines, expected 3/);
    expect(() => PackedLines.of('a', 0, 'x')).toThrow(ArtifactFormatError);
    expect(PackedLines.of('', 0, 'x').length).toBe(0);
    expect(PackedLines.of('', 1, 'x').line(0)).toBe('');
  });
});
