// The shard layout's encodings that the sample index does not reach: posting lists with 32-bit ids (a shard of more
// than 65,536 statements; the shared corpus's largest has about 15,000), and a term dictionary out of order.
import { describe, expect, it } from 'vitest';
import { ArtifactFormatError } from '../../src/format/container';
import { decodeShard, decodeShardHead, encodeShard, fillPostings, postingList, shardHead } from '../../src/format/shard-layout';

function bigShard(n: number, terms = ['far']) {
  const dim = 8;
  const ids = [0, 65_535, 65_536, n - 1];
  return encodeShard({
    id: 'BIG-FY2024',
    texts: Array.from({ length: n }, (_, i) => `s${i}`),
    kind: new Array(n).fill('sentence'),
    status: new Array(n).fill('FACT'),
    metric: new Uint8Array(n),
    agree: new Array(n).fill([]),
    disagree: new Array(n).fill([]),
    edges: new Array(n).fill([]),
    terms,
    postOffsets: Uint32Array.from([0, ...terms.map(() => ids.length)]),
    postDocs: Uint32Array.from(terms.flatMap(() => ids)),
    postTfs: Uint8Array.from(terms.flatMap(() => [1, 2, 3, 4])),
    docLen: new Uint16Array(n).fill(1),
    dim,
    vectors: new Int8Array(n * dim),
    source: new Array(n).fill(0),
    page: new Array(n).fill(1),
    offset: new Uint32Array(n),
    length: new Uint32Array(n),
  });
}

describe('shard posting lists', () => {
  it('store 32-bit ids when a shard has more than 65,536 statements, read whole and by range alike', () => {
    const n = 70_000;
    const bytes = bigShard(n);
    const whole = decodeShard(bytes);
    expect(Array.from(whole.postDocs)).toEqual([0, 65_535, 65_536, n - 1]);
    expect(Array.from(whole.postTfs)).toEqual([1, 2, 3, 4]);
    const head = decodeShardHead(bytes.subarray(0, shardHead(bytes).head_bytes));
    const at = head.parts!.layout.postingAt;
    const start = head.parts!.layout.postings.start;
    expect(at[1]! - at[0]!).toBe(4 * 5);
    expect(postingList(head, 0).docs.length).toBe(0); // not read yet
    fillPostings(head, 0, bytes.subarray(start + at[0]!, start + at[1]!));
    expect(Array.from(postingList(head, 0).docs)).toEqual(Array.from(whole.postDocs));
    expect(Array.from(postingList(head, 0).tfs)).toEqual(Array.from(postingList(whole, 0).tfs));
  });
});

describe('shard term dictionary', () => {
  it('finds each term by binary search, and rejects a dictionary that is not sorted', () => {
    const terms = ['alpha', 'beta', 'delta', 'gamma', 'zeta'];
    const head = (t: string[]) => {
      const bytes = bigShard(70_000, t);
      return decodeShardHead(bytes.subarray(0, shardHead(bytes).head_bytes));
    };
    const sorted = head(terms);
    terms.forEach((t, i) => expect(sorted.termIndex.get(t)).toBe(i));
    for (const absent of ['', 'a', 'epsilon', 'zz']) expect(sorted.termIndex.get(absent)).toBeUndefined();
    expect(() => head(['beta', 'alpha'])).toThrow(ArtifactFormatError);
    expect(() => head(['alpha', 'alpha'])).toThrow(/not sorted/);
  });
});
