// Passages (src/core/passages.ts, src/evidence/chains.ts passageAfter): what an entry's passage holds, and that
// growing entries into the room a token budget leaves keeps the chosen chains, their sources and the cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLeadPassages, withPassages, type ChosenChain } from '../../src/core/passages';
import { estimateTokens } from '../../src/evidence/budget';
import {
  draftChains,
  materializeChain,
  passageAfter,
  pendingChains,
  textEntryTerms,
  type ChainDraft,
} from '../../src/evidence/chains';
import type { Chain } from '../../src/evidence/model';
import { renderEvidence } from '../../src/render/evidence';
import { statementKind } from '../../index-format/shard-layout';
import type { Shard } from '../../index-format/types';
import { tokenize } from '../../index-format/tokenize';
import { EFFORT_LIMITS } from '../../src/search/effort';
import { RANKING } from '../../src/search/ranking';
import { openFileIndex } from '../support/file-index';
import { shardHit as hit } from '../support/shard-hit';
import { buildSample } from '../support/sample-build';

let sample: Awaited<ReturnType<typeof buildSample>>;
beforeAll(async () => {
  sample = await buildSample();
});
afterAll(() => sample.dispose());

/** The sentences of a shard that at least two statements of the same source, page and kind follow. */
function sentencesWithPassage(shard: Shard): number[] {
  const out: number[] = [];
  for (let l = 0; l + 2 < shard.count; l++)
    if (statementKind(shard, l) === 'sentence' && passageAfter(shard, l, new Set()).length >= 2) out.push(l);
  return out;
}

describe('passageAfter', () => {
  it('follows the statement in its filing: same source, page and kind, in order, up to a claim taken', () => {
    const { shard } = sample.shard('QVLT-FY2023');
    const [local] = sentencesWithPassage(shard);
    expect(local).toBeDefined();
    const after = passageAfter(shard, local!, new Set());
    expect(after.length).toBeLessThanOrEqual(RANKING.chains.passageStatements);
    after.forEach((l, i) => {
      expect(l).toBe(local! + 1 + i);
      expect(shard.source[l]).toBe(shard.source[local!]);
      expect(shard.page[l]).toBe(shard.page[local!]);
      expect(statementKind(shard, l)).toBe('sentence');
    });
    // A statement already shown ends the passage before it.
    expect(passageAfter(shard, local!, new Set([shard.claim[after[1]!]!]))).toEqual(after.slice(0, 1));
    expect(passageAfter(shard, local!, new Set(), 1)).toEqual(after.slice(0, 1));
  });
});

describe('withPassages', () => {
  function chosenChains(): { chosen: ChosenChain[]; render: (c: readonly Chain[]) => string } {
    const { index, shard } = sample.shard('QVLT-FY2023');
    const shards = new Map([[index, shard]]);
    const anchors = sentencesWithPassage(shard).slice(0, 4);
    const drafts = draftChains(
      anchors.map((l, i) => hit(index, shard, l, 0.05 - i * 0.01)),
      EFFORT_LIMITS.low,
      new Map(anchors.flatMap((l) => tokenize(shard.texts[l]!)).map((t) => [t, 1])),
      textEntryTerms(tokenize),
      shards,
    );
    const chosen = pendingChains(drafts, shards).map((pending) => ({
      pending,
      chain: materializeChain(pending.draft, shards),
    }));
    return { chosen, render: (c) => renderEvidence(sample.catalog, c, 'rendered') };
  }
  const materialize = (draft: ChainDraft, shards: ReadonlyMap<number, Shard>) => materializeChain(draft, shards);
  const reader = () => openFileIndex(sample.result.dir);

  it('grows entries into the room the cap leaves, keeping the chains, their sources and the cap', async () => {
    const { chosen, render } = chosenChains();
    expect(chosen.length).toBeGreaterThan(1);
    const before = render(chosen.map((c) => c.chain));
    const cap = estimateTokens(before) + 60;
    const grown = await withPassages(reader(), chosen, materialize, render, cap, before);
    expect(estimateTokens(grown.evidence)).toBeLessThanOrEqual(cap);
    expect(grown.evidence).toBe(render(grown.chains));
    expect(grown.evidence.length).toBeGreaterThan(before.length);
    grown.chains.forEach((chain, i) => {
      const was = chosen[i]!.chain;
      expect(chain.entries.map((e) => e.sources)).toEqual(was.entries.map((e) => e.sources));
      chain.entries.forEach((e, j) => {
        expect(e.consensus.startsWith(was.entries[j]!.consensus)).toBe(true);
      });
    });
  });

  it('changes nothing without room, and uncapped never repeats a statement a chosen chain shows', async () => {
    const { chosen, render } = chosenChains();
    const before = render(chosen.map((c) => c.chain));
    const full = await withPassages(reader(), chosen, materialize, render, estimateTokens(before), before);
    expect(full.evidence).toBe(before);

    const uncapped = await withPassages(reader(), chosen, materialize, render, null, before);
    // A passage never repeats a statement a chosen chain shows.
    const originals = chosen.flatMap((c) => c.chain.entries.map((e) => e.consensus));
    const added = uncapped.chains.flatMap((c, i) =>
      c.entries.map((e, j) => e.consensus.slice(chosen[i]!.chain.entries[j]!.consensus.length)),
    );
    for (const text of originals) for (const a of added) expect(a.includes(` ${text}`)).toBe(false);
    expect(uncapped.evidence.length).toBeGreaterThan(before.length);
  });
});

describe('withLeadPassages', () => {
  /** Chains anchored on sentences with a passage, at least five statements apart (their chains do not show it). */
  function pending(entriesPerChain = 1) {
    const { index, shard } = sample.shard('QVLT-FY2023');
    const anchors: number[] = [];
    for (const l of sentencesWithPassage(shard)) if (!anchors.length || l - anchors.at(-1)! >= 5) anchors.push(l);
    const shards = new Map([[index, shard]]);
    const drafts = draftChains(
      anchors.map((l, i) => hit(index, shard, l, 0.09 - i * 0.01)),
      { ...EFFORT_LIMITS.low, entriesPerChain },
      new Map(anchors.flatMap((l) => tokenize(shard.texts[l]!)).map((t) => [t, 1])),
      textEntryTerms(tokenize),
      shards,
    );
    return { shard, chains: pendingChains(drafts, shards) };
  }

  it("gives every chain's sentence entries the statements that follow them, none another chain shows", () => {
    const { shard, chains } = pending();
    const { statements } = RANKING.chains.leadPassages;
    const out = withLeadPassages(chains);
    // What passageAfter gives with every chain's statements and the earlier lead passages taken.
    const taken = new Set(chains.flatMap((c) => c.claims));
    out.forEach((c, i) => {
      expect(c.claims).toEqual(chains[i]!.claims);
      c.draft.nodes.forEach((n, j) => {
        if (statementKind(shard, n.local) !== 'sentence') {
          expect(n).toBe(chains[i]!.draft.nodes[j]);
          return;
        }
        const passage = n.passage ?? [];
        expect(passage).toEqual(passageAfter(shard, n.local, taken, statements));
        for (const l of passage) taken.add(shard.claim[l]!);
      });
    });
    expect(out.filter((c) => c.draft.nodes.some((n) => n.passage?.length)).length).toBeGreaterThan(1);
  });

  it('keeps a lead passage when the room is shared out after the budget', async () => {
    const { chains } = pending(2);
    const led = withLeadPassages(chains);
    const shards = led[0]!.shards;
    const chosen = led.map((p) => ({ pending: p, chain: materializeChain(p.draft, shards) }));
    const render = (c: readonly Chain[]) => renderEvidence(sample.catalog, c, 'rendered');
    const before = render(chosen.map((c) => c.chain));
    expect(before.length).toBeGreaterThan(render(chains.map((p) => materializeChain(p.draft, shards))).length);
    // With no room or a little, every entry keeps the text it was chosen with, lead passage included.
    for (const room of [0, 15, 40, 120]) {
      const grown = await withPassages(
        openFileIndex(sample.result.dir),
        chosen,
        (d, s) => materializeChain(d, s),
        render,
        estimateTokens(before) + room,
        before,
      );
      if (!room) expect(grown.evidence).toBe(before);
      grown.chains.forEach((chain, i) => {
        chain.entries.forEach((e, j) => {
          expect(e.consensus.startsWith(chosen[i]!.chain.entries[j]!.consensus), `room ${room}`).toBe(true);
        });
      });
    }
  });
});
