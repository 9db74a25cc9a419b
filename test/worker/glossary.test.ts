/**
 * The entity glossary through the real Worker on the sample index: segments, products and counterparties the
 * builder found (index-builder/entities) are listed exactly when the returned entries mention them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

// Entities of the invented ZNHF filings: a brand named in a brand list and in many statements, another brand, and
// the largest customer ("Our largest customer, Marketbright Stores, Inc., ... accounted for approximately 18%").
const ZNHF_ENTITIES = ['Meadowline', 'Zenny', 'Marketbright Stores, Inc.'];

const mentions = (text: string, name: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').test(text);

describe('entity_glossary', () => {
  it('lists an entity the returned chains mention, with its description, and none that they do not', async () => {
    // Three chains: enough to mention a brand, few enough to leave an entity out (the check below can fail).
    const { json } = await query({
      query: 'Meadowline brand impairment',
      mode: 'research',
      metadata_filters: { sec_ticker: 'ZNHF' },
      retrieval: { max_evidence: 3 },
    });
    const evidence: string = json.evidence;
    const glossary = /<entity_glossary>\n([\s\S]*?)\n<\/entity_glossary>/.exec(evidence)![1]!;
    const consensus = [...evidence.matchAll(/<consensus>([\s\S]*?)<\/consensus>/g)].map((m) => m[1]!).join('\n');
    expect(consensus).toContain('Meadowline');
    expect(glossary).toMatch(
      new RegExp(
        String.raw`<entity>\n<name>Meadowline<\/name>\n<description>Product or brand of Zenharrow Foods \(ZNHF\)` +
          String.raw`: [^<]+<\/description>\n<\/entity>`,
      ),
    );
    const listed = ZNHF_ENTITIES.filter((n) => glossary.includes(`<name>${n.replace('&', '&amp;')}</name>`));
    expect(listed).toEqual(ZNHF_ENTITIES.filter((n) => mentions(consensus, n)));
    expect(listed.length).toBeLessThan(ZNHF_ENTITIES.length); // something is left out, so the check can fail
    // The issuer comes first; its named entities follow it.
    expect(glossary.indexOf('<name>Zenharrow Foods (ZNHF)</name>')).toBeLessThan(
      glossary.indexOf('<name>Meadowline</name>'),
    );
  });

  it('keeps the budget exact with the entities in the glossary', async () => {
    for (const cap of [150, 400, 900]) {
      const { json } = await query({
        query: 'Meadowline brand impairment',
        mode: 'research',
        metadata_filters: { sec_ticker: 'ZNHF' },
        retrieval: { max_evidence_tokens: cap },
      });
      expect(json.evidence_budget.estimated_tokens).toBeLessThanOrEqual(cap);
      if (json.evidence) expect(Math.ceil(json.evidence.length / 4)).toBe(json.evidence_budget.estimated_tokens);
    }
  });
});
