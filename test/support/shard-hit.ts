import { statementKind, statementStatus } from '../../index-format/shard-layout';
import type { Shard } from '../../index-format/types';
import type { Hit } from '../../src/search/retrieve';

/** A statement of a whole shard as a retrieval hit with this fused score (tests of chains without a search). */
export function shardHit(index: number, shard: Shard, local: number, fused: number): Hit {
  return {
    shard: index,
    local,
    text: shard.texts[local]!,
    source: shard.source[local]!,
    page: shard.page[local]!,
    kind: statementKind(shard, local),
    status: statementStatus(shard, local),
    fused,
    lexical: fused,
    cosine: 0.5,
    statement: 0,
  };
}
