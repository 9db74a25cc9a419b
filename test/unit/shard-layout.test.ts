// The shard layout's encodings that the sample index does not reach: posting lists with 32-bit ids (a shard of more
// than 65,536 statements; the shared corpus's largest has about 15,000), and a term dictionary out of order.
import { describe, expect, it } from 'vitest';
import {
  decodeShard,
  decodeShardHead,
  edgeCount,
  encodeShard,
  type ShardInput,
  fillPostings,
  postingList,
  rowLabelTerms,
  shardHead,
  statementEdges,
  statementFeatures,
  statementKind,
  statementStatus,
} from '../../index-format/shard-layout';

/** A shard's builder input of n plain statements, with `overrides` (columns of the same length). */
function shardInput(n: number, overrides: Partial<ShardInput> = {}): ShardInput {
  const dim = 8;
  return {
    id: 'BIG-FY2024',
    texts: Array.from({ length: n }, (_, i) => `s${i}`),
    kind: new Array(n).fill('sentence'),
    status: new Array(n).fill('FACT'),
    metric: new Uint8Array(n),
    agree: new Array(n).fill([]),
    disagree: new Array(n).fill([]),
    edges: new Array(n).fill([]),
    terms: [],
    postOffsets: Uint32Array.from([0]),
    postDocs: new Uint32Array(0),
    postTfs: new Uint8Array(0),
    docLen: new Uint16Array(n).fill(1),
    dim,
    vectors: new Int8Array(n * dim),
    source: new Array(n).fill(0),
    page: new Array(n).fill(1),
    offset: new Uint32Array(n),
    length: new Uint32Array(n),
    ...overrides,
  };
}

function bigShard(n: number, terms = ['far']) {
  const ids = [0, 65_535, 65_536, n - 1];
  return encodeShard(
    shardInput(n, {
      terms,
      postOffsets: Uint32Array.from([0, ...terms.map(() => ids.length)]),
      postDocs: Uint32Array.from(terms.flatMap(() => ids)),
      postTfs: Uint8Array.from(terms.flatMap(() => [1, 2, 3, 4])),
    }),
  );
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
  it('finds each term by binary search; the builder refuses a dictionary that is not strictly sorted', () => {
    const terms = ['alpha', 'beta', 'delta', 'gamma', 'zeta'];
    const head = (t: string[]) => {
      const bytes = bigShard(70_000, t);
      return decodeShardHead(bytes.subarray(0, shardHead(bytes).head_bytes));
    };
    const sorted = head(terms);
    terms.forEach((t, i) => {
      expect(sorted.termIndex.get(t)).toBe(i);
    });
    for (const absent of ['', 'a', 'epsilon', 'zz']) expect(sorted.termIndex.get(absent)).toBeUndefined();
    expect(() => head(['beta', 'alpha'])).toThrow(/not strictly sorted/);
    expect(() => head(['alpha', 'alpha'])).toThrow(/not strictly sorted/);
  });
});

describe('shard columns read from the head', () => {
  it('give back the kinds, statuses, row labels and evidence graph the builder wrote, whole and by range alike', () => {
    const n = 6;
    const kind = ['table_row', 'sentence', 'table_row', 'sentence', 'sentence', 'table_row'] as const;
    const status = ['FACT', 'PREDICTION', 'FACT', 'RISK', 'ASSESSMENT', 'FACT'] as const;
    const texts = [
      'Net sales: 4,837 for FY2023',
      'Sales will grow.',
      'Other: 12 for FY2023',
      'Rates may rise.',
      'We believe demand is strong.',
      'Total current assets: 2,310 for FY2023',
    ];
    const edges = [
      [
        { target: 1, kind: 'explains' as const },
        { target: 2, kind: 'period' as const },
      ],
      [],
      [],
      [{ target: 0, kind: 'outlook' as const }],
      [],
      [{ target: 4, kind: 'explains' as const }],
    ];
    const bytes = encodeShard(
      shardInput(n, {
        id: 'COLS-FY2023',
        texts,
        kind: [...kind],
        status: [...status],
        edges,
        terms: ['sale'],
        postOffsets: Uint32Array.from([0, 1]),
        postDocs: Uint32Array.from([0]),
        postTfs: Uint8Array.from([1]),
      }),
    );
    for (const shard of [decodeShard(bytes), decodeShardHead(bytes.subarray(0, shardHead(bytes).head_bytes))]) {
      expect(Array.from({ length: n }, (_, i) => statementKind(shard, i))).toEqual(kind);
      expect(Array.from({ length: n }, (_, i) => statementStatus(shard, i))).toEqual(status);
      expect(Array.from({ length: n }, (_, i) => statementEdges(shard, i))).toEqual(edges);
      expect(Array.from({ length: n }, (_, i) => edgeCount(shard, i))).toEqual(edges.map((e) => e.length));
      expect(Array.from({ length: n }, (_, i) => rowLabelTerms(shard, i))).toEqual(
        texts.map((t, i) => statementFeatures(t, kind[i]!, 0).label),
      );
    }
  });
});
