// Term blocks cap each term's shard list (index-builder/shards/partitioned.ts, MAX_SHARDS_PER_TERM) so a block's size
// does not grow with the number of shards, and routing (rankShards) gives the left-out shards the rest bound.
import { describe, expect, it } from 'vitest';
import {
  cappedShards,
  cappedUnordered,
  type CorpusLexicon,
  MAX_SHARDS_PER_TERM,
  termBlocks,
} from '../../index-builder/shards/partitioned';
import { decodeTermBlock } from '../../index-format/codec';
import type { Directory } from '../../index-format/types';
import { termTable } from '../../index-format/views';
import { rankShards } from '../../src/search/select-shards';

const SHARDS = MAX_SHARDS_PER_TERM + 44;

/** "common" in every shard with impact (shard mod 200) + 1; "rare" in shards 3 and 7. */
function lexicon(): CorpusLexicon {
  const common = Array.from({ length: SHARDS }, (_, s) => s);
  const ids = [...common, 3, 7];
  const impacts = [...common.map((s) => (s % 200) + 1), 90, 40];
  return {
    terms: ['common', 'rare'],
    df: Uint32Array.from([SHARDS * 10, 2]),
    shardOffsets: Uint32Array.from([0, SHARDS, SHARDS + 2]),
    shardIds: Uint16Array.from(ids),
    shardImpact: Uint8Array.from(impacts),
    impactScale: 1,
    totalStatements: SHARDS * 20,
    avgLen: 10,
  };
}

const model = { dim: 2, vocab: [], weights: new Float32Array(0), vectors: new Int8Array(0) };

function table() {
  const { blocks, files } = termBlocks(lexicon(), model);
  const decoded = new Map(files.map(([, bytes], k) => [k, decodeTermBlock(bytes, k)]));
  const directory = {
    embedding_dim: 2,
    terms: { blocks, total_statements: SHARDS * 20, avg_len: 10, impact_scale: 1 },
  } as Directory;
  return termTable(directory, decoded, ['common', 'rare']).lexicon;
}

describe('term block shard lists', () => {
  it(`list at most MAX_SHARDS_PER_TERM shards per term, the highest impacts, and keep the highest left out as the \
rest bound`, () => {
    const lex = table();
    const t = lex.termIndex.get('common')!;
    const listed = [...lex.shardIds.subarray(lex.shardOffsets[t]!, lex.shardOffsets[t + 1]!)];
    expect(listed).toHaveLength(MAX_SHARDS_PER_TERM);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    // Impacts run 1..200 twice over 300 shards; the 256 best are all impacts >= 73 (ties by shard number).
    const all = lexicon();
    const order = Array.from({ length: SHARDS }, (_, s) => s).sort(
      (a, b) => all.shardImpact[b]! - all.shardImpact[a]! || a - b,
    );
    expect(new Set(listed)).toEqual(new Set(order.slice(0, MAX_SHARDS_PER_TERM)));
    expect(lex.restImpact[t]).toBe(all.shardImpact[order[MAX_SHARDS_PER_TERM]!]);
    expect(lex.restImpact[lex.termIndex.get('rare')!]).toBe(0); // a short list is whole
  });

  it('route: a shard left out of a list still gets the rest bound, a listed one its own impact', () => {
    const lex = table();
    const t = lex.termIndex.get('common')!;
    const listed = new Set(lex.shardIds.subarray(lex.shardOffsets[t]!, lex.shardOffsets[t + 1]!));
    const out = Array.from({ length: SHARDS }, (_, s) => s).find((s) => !listed.has(s))!;
    const inList = [...listed].find((s) => s % 200 === 199)!; // impact 200, the best
    expect(rankShards(lex, [out, inList], ['common'], 2)).toEqual([inList, out]);
    // "rare" lifts shard 3 above the rest of the unlisted ones whatever their rest bound.
    expect(rankShards(lex, [out, 3], ['common', 'rare'], 1)).toEqual([3]);
  });

  it('cap: counting impacts picks what sorting every shard by impact, then by shard, picks (random lists)', () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 200; round++) {
      const n = MAX_SHARDS_PER_TERM - 5 + Math.floor(random() * 400);
      const spread = 1 + Math.floor(random() * 255); // few distinct impacts: many ties at the cut
      const ids = Uint16Array.from({ length: n }, (_, s) => s * 3);
      const impacts = Uint8Array.from({ length: n }, () => 1 + Math.floor(random() * spread));
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => impacts[b]! - impacts[a]! || a - b);
      const kept = order.slice(0, MAX_SHARDS_PER_TERM).sort((a, b) => a - b);
      const got = cappedShards(ids, impacts);
      expect([...got.ids]).toEqual(kept.map((k) => ids[k]!));
      expect([...got.impacts]).toEqual(kept.map((k) => impacts[k]!));
      expect(got.rest).toBe(n > MAX_SHARDS_PER_TERM ? impacts[order[MAX_SHARDS_PER_TERM]!]! : 0);
      // The merge's twin: the same list shuffled (several partitions' lists, concatenated), capped unsorted.
      const shuffled = Array.from({ length: n }, (_, k) => k);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const unordered = cappedUnordered(
        Uint16Array.from(shuffled, (k) => ids[k]!),
        Uint8Array.from(shuffled, (k) => impacts[k]!),
      );
      expect(unordered).toEqual(got);
    }
  });
});
