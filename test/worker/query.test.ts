/** Retrieval and rendering through the real Worker; the contract rules themselves are in contract.test.ts. */
import { beforeAll, describe, expect, it } from 'vitest';
import { query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

describe('POST /v2/sp500/query', () => {
  it(`renders the source registry, chains and the source_key footer from a real search of the sample \
index`, async () => {
    const { json } = await query({ query: 'purchases of property, plant and equipment' });
    const evidence: string = json.evidence;
    expect(evidence.startsWith('<source_registry>\n<source id="')).toBe(true);
    expect(evidence).toMatch(/<evidence_chain relevance_score="(10|\d)">/);
    expect(evidence).toMatch(/<entry confidence_score='(High|Medium|Low)' sources='[^']+'>/);
    expect(evidence.trimEnd().endsWith('</source_key>')).toBe(true);
    expect(evidence.toLowerCase()).toContain('property, plant and equipment');
    // Every cited id is registered, and every registered source is cited.
    const registered = [...evidence.matchAll(/<source id="([^"]+)"/g)].map((m) => m[1]);
    const cited = new Set([...evidence.matchAll(/sources='([^']+)'/g)].flatMap((m) => m[1]!.split(', ')));
    expect(new Set(registered)).toEqual(cited);
  });

  it('gives the same evidence without the footer in xml format', async () => {
    const rendered = (await query({ query: 'risk factors supply chain', include: { evidence_format: 'rendered' } }))
      .json.evidence as string;
    const xml = (await query({ query: 'risk factors supply chain', include: { evidence_format: 'xml' } })).json
      .evidence as string;
    expect(xml).not.toContain('<source_key>');
    expect(rendered.startsWith(xml)).toBe(true);
  });

  it('never exceeds max_evidence_tokens and keeps only complete chains', async () => {
    for (const cap of [1, 200, 600, 1500]) {
      const { json } = await query({ query: 'net sales gross margin', retrieval: { max_evidence_tokens: cap } });
      expect(json.evidence_budget.requested_max_tokens).toBe(cap);
      expect(json.evidence_budget.estimated_tokens).toBeLessThanOrEqual(cap);
      if (json.evidence) {
        expect(Math.ceil(json.evidence.length / 4)).toBe(json.evidence_budget.estimated_tokens);
        const opens = json.evidence.match(/<evidence_chain /g)?.length ?? 0;
        expect(json.evidence.match(/<\/evidence_chain>/g)?.length ?? 0).toBe(opens);
        expect(opens).toBe(json.evidence_budget.returned_evidence_count);
      } else {
        expect(json.evidence_instructions).toBeUndefined();
      }
    }
  });

  it('infers company and fiscal-year filters in research mode and reports them', async () => {
    const { json } = await query({
      query: 'What were QNTM purchases of property, plant and equipment in FY2023?',
      mode: 'research',
    });
    expect(json.summary.applied_metadata_filters).toBeDefined();
  });
});
