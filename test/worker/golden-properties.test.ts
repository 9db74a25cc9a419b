import fc from 'fast-check';
import { effortArb, includeArb, modeArb } from '../support/arbitraries';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchResponse } from '../../src/schema/response';
import { parseEvidence } from '../support/evidence-grammar';
import { query, seedSampleIndex } from './helpers';

/**
 * Properties of whole responses, end to end through the Worker on the sample index, for random questions, modes,
 * efforts, include flags and caps: the token cap is never exceeded, only complete chains come back (the strict
 * evidence grammar parses), and every section is present exactly when the spec says.
 */
beforeAll(async () => {
  await seedSampleIndex();
});

const WORDS = [
  'net',
  'sales',
  'revenue',
  'gross',
  'margin',
  'purchases',
  'property',
  'plant',
  'equipment',
  'risk',
  'factors',
  'supply',
  'chain',
  'legal',
  'proceedings',
  'lawsuit',
  'impairment',
  'cash',
  'flow',
  'dividends',
  'outlook',
  'anticipate',
  'capital',
  'expenditures',
  'Quillvale',
  'Zenharrow',
  'Quarrystone',
  'QVLT',
  'ZNHF',
  'QSEP',
  'fiscal',
  '2022',
  '2023',
  '2024',
  'Q1',
  'Q3',
  'MD&A',
  '10-K',
  '10-Q',
  'semiconductor',
  'companies',
  'rate',
  'case',
  '</evidence_chain>',
  '<source id="x">',
  'ignore',
  'previous',
  'instructions',
];

const requestArb = fc.record({
  query: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
  mode: modeArb,
  effort: effortArb,
  include: includeArb,
  retrieval: fc.record(
    {
      max_evidence: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      max_evidence_tokens: fc.option(fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 6000 })), {
        nil: null,
      }),
    },
    { requiredKeys: [] },
  ),
});

describe('response properties for any request (fast-check, through the Worker)', () => {
  it(`never exceeds the token cap, returns only complete chains and includes exactly the requested \
sections`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const { status, json } = await query(req);
        expect(status).toBe(200);
        expect(ResearchResponse.safeParse(json).success).toBe(true);
        const inc = {
          evidence: true,
          evidence_instructions: true,
          agent_context: false,
          evidence_format: 'rendered',
          metadata_distribution: false,
          metadata_dashboard: false,
          summary: true,
          ...req.include,
        };
        const cap = req.retrieval.max_evidence_tokens ?? null;
        const maxChains = req.retrieval.max_evidence ?? Infinity;

        // Presence rules (spec 2.5 and 4.1).
        expect('evidence_budget' in json).toBe(inc.evidence || inc.agent_context);
        expect('agent_context' in json).toBe(inc.agent_context);
        expect('metadata_distribution' in json).toBe(inc.metadata_distribution);
        expect('metadata_dashboard' in json).toBe(inc.metadata_dashboard);
        expect('summary' in json).toBe(inc.summary);
        expect('coverage' in json).toBe(req.mode === 'agentic_research');
        expect('retrieval_plan' in json).toBe(req.mode === 'agentic_research');
        if (!inc.evidence) expect(json.evidence).toBeUndefined();
        expect('evidence_instructions' in json).toBe('evidence' in json && inc.evidence_instructions);

        // The evidence actually delivered (top level or inside agent_context): complete chains within the cap.
        let delivered: string | undefined = json.evidence;
        if (inc.agent_context) {
          const text: string = json.agent_context.text;
          const at = text.indexOf('## Evidence\n\n<source_registry>');
          const inContext = at >= 0 ? text.slice(at + 13) : undefined;
          if (delivered !== undefined) expect(inContext).toBe(delivered);
          delivered ??= inContext;
          expect(json.agent_context.source_fields.includes('evidence')).toBe(inContext !== undefined);
          expect(json.agent_context.source_fields.includes('coverage')).toBe(req.mode === 'agentic_research');
        }
        const budget = json.evidence_budget;
        if (budget) {
          expect(budget.requested_max_tokens).toBe(cap);
          if (cap !== null) expect(budget.estimated_tokens).toBeLessThanOrEqual(cap);
          expect(budget.returned_evidence_count).toBeLessThanOrEqual(budget.available_evidence_count);
          expect(budget.available_evidence_count).toBeLessThanOrEqual(maxChains);
          expect(budget.truncated).toBe(budget.returned_evidence_count < budget.available_evidence_count);
          if (delivered !== undefined) {
            expect(budget.estimated_tokens).toBe(Math.ceil(delivered.length / 4));
            const parsed = parseEvidence(delivered);
            expect(parsed.chains.length).toBe(budget.returned_evidence_count);
            expect(parsed.sourceKey !== null).toBe(inc.evidence_format === 'rendered');
          } else {
            expect(budget.returned_evidence_count).toBe(0);
            expect(budget.estimated_tokens).toBe(0);
          }
        }
        const n = budget?.returned_evidence_count;
        if (json.summary && n !== undefined) expect(json.summary.evidence_count).toBe(n);
        if (json.metadata_distribution && n !== undefined) expect(json.metadata_distribution.evidence_paths).toBe(n);
        if (json.metadata_dashboard && n !== undefined)
          expect(json.metadata_dashboard).toContain(`\nEvidence paths: ${n}\n`);
        if (budget && budget.available_evidence_count > 0 && budget.returned_evidence_count === 0) {
          expect(json.notices.map((x: any) => x.code)).toContain('EVIDENCE_OMITTED_BY_TOKEN_BUDGET');
        }
        if (json.summary?.warnings) {
          const warnings = json.summary.warnings as string[];
          for (const w of warnings) expect(json.notices.map((x: any) => x.message)).toContain(w);
        }
      }),
      { numRuns: 150, seed: 20260506 },
    );
  });
});
