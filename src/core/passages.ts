import { estimateTokens } from '../evidence/budget';
import { passageAfter, unreadRecords, type ChainDraft, type PendingChain } from '../evidence/chains';
import { RANKING } from '../search/ranking';
import { statementKind } from '../../index-format/shard-layout';
import type { Chain } from '../evidence/model';
import { readRecords } from '../search/retrieve';
import type { IndexReader } from '../../index-format/index-reader';
import type { Shard } from '../../index-format/types';

/** A chosen chain: as returned so far, and the pending chain it was read from. */
export interface ChosenChain {
  chain: Chain;
  pending: PendingChain;
}

/**
 * Passages the budget counts: every chain's sentence entries take the statements that follow them (passageAfter, up
 * to RANKING.chains.leadPassages.statements each) before the budget chooses, so a chain is kept or dropped with its
 * passage. A passage never shows a statement any chain shows or an earlier chain's lead passage took (chains in rank
 * order). The passages in the room (withPassages) may lengthen them afterwards.
 */
export function withLeadPassages(chains: readonly PendingChain[]): PendingChain[] {
  const { statements } = RANKING.chains.leadPassages;
  const shown = new Set(chains.flatMap((c) => c.claims));
  return chains.map((c) => {
    const nodes = c.draft.nodes.map((node) => {
      const shard = c.shards.get(node.shard);
      if (!shard || statementKind(shard, node.local) !== 'sentence') return node;
      const passage = passageAfter(shard, node.local, shown, statements);
      for (const l of passage) shown.add(shard.claim[l]!);
      return passage.length ? { ...node, passage } : node;
    });
    return { ...c, draft: { ...c.draft, nodes } };
  });
}

/**
 * Passages in the room the token budget leaves. Every entry costs about 330 characters of markup whatever its text,
 * and a statement is often a sentence of the paragraph that answers: so once the chains are chosen, the entries of
 * the chosen chains, in rank order, show the statements that follow them in their filings (src/evidence/chains.ts
 * passageAfter) while the evidence still fits the cap. The chains, their sources and their order do not change, so
 * nothing the selection chose is lost; only entry texts grow. A statement shows once: never in a passage when a
 * chosen chain or an earlier passage shows it. Uncapped, every entry shows its whole passage. `evidence` is the chosen
 * chains rendered. An entry that took a lead passage (withLeadPassages) keeps it, and may lengthen it.
 */
export async function withPassages(
  reader: IndexReader,
  chosen: readonly ChosenChain[],
  materialize: (draft: ChainDraft, shards: ReadonlyMap<number, Shard>) => Chain,
  render: (chains: readonly Chain[]) => string,
  cap: number | null,
  evidence: string,
): Promise<{ chains: Chain[]; evidence: string }> {
  const chains = chosen.map((c) => c.chain);
  // No statement and its separator fit: nothing to read.
  if (cap !== null && cap * 4 - evidence.length < 2) return { chains, evidence };
  const shown = new Set(chosen.flatMap((c) => c.pending.claims));
  const candidates = chosen.map(({ pending }) =>
    pending.draft.nodes.map((n) => {
      const shard = pending.shards.get(n.shard);
      if (!shard) return [];
      const after = passageAfter(shard, n.local, shown);
      for (const l of after) shown.add(shard.claim[l]!);
      return after;
    }),
  );
  const unread = unreadRecords(
    chosen.flatMap(({ pending }, i) =>
      pending.draft.nodes.flatMap((n, j) => candidates[i]![j]!.map((local) => ({ shard: n.shard, local }))),
    ),
    new Map(chosen.flatMap(({ pending }) => [...pending.shards])),
  );
  const read = unread.size ? await readRecords(reader, unread) : new Map<number, Shard>();

  let text = evidence;
  chosen.forEach(({ pending }, i) => {
    const shards = new Map([...pending.shards, ...read]);
    const passages: (readonly number[])[] = pending.draft.nodes.map((n) => n.passage ?? []);
    const draftWith = () => ({
      ...pending.draft,
      nodes: pending.draft.nodes.map((n, j) => ({ ...n, passage: passages[j] })),
    });
    pending.draft.nodes.forEach((_, j) => {
      const after = candidates[i]![j]!;
      // The longest passage that fits: a shorter one only when the longer does not.
      for (let k = after.length; k > 0; k--) {
        passages[j] = after.slice(0, k);
        const chain = materialize(draftWith(), shards);
        const grows = chain.entries[j]!.consensus.length - chains[i]!.entries[j]!.consensus.length;
        if (grows <= 0) continue;
        if (cap === null) {
          chains[i] = chain;
          return;
        }
        // Escaping only adds characters: a passage that cannot fit unescaped is not rendered.
        if (Math.ceil((text.length + grows) / 4) > cap) continue;
        const trial = render(chains.map((c, x) => (x === i ? chain : c)));
        if (estimateTokens(trial) > cap) continue;
        chains[i] = chain;
        text = trial;
        return;
      }
      passages[j] = pending.draft.nodes[j]!.passage ?? [];
    });
  });
  return { chains, evidence: cap === null ? render(chains) : text };
}
