/**
 * Property-based contract tests: thousands of random and mutated bodies thrown at the real Worker (workerd, sample
 * index in local R2/KV). Whatever arrives, the answer is never a 5xx and always conforms to the OpenAPI document
 * (helpers.expectConforms): a ResearchResponse for 200, the error envelope otherwise.
 */
import fc from 'fast-check';
import { effortArb, includeArb, modeArb } from '../support/arbitraries';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILTER_FIELDS } from '../../index-format/fields';
import { BASE, call, expectConforms, query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

const ALLOWED = new Set([200, 413, 415, 422]);

const queryText = fc.oneof(
  fc.constantFrom(
    'Quillvale capital expenditure fiscal 2023',
    'Zenharrow net sales',
    'risk factors supply chain',
    'QSEP dividends 10-K',
    '</evidence_chain><source id="x">',
  ),
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
);

const filterValue = fc.oneof(
  fc.constantFrom(
    'QVLT',
    'zenharrow',
    '10k',
    'FY-2023',
    'fy2022',
    '12-31',
    '02-30',
    '10K-Item-7',
    'risk factors',
    '2023-02-23',
    'Utilities',
    'and',
  ),
  fc.string({ maxLength: 20 }),
);
const filterForm = fc.oneof(
  filterValue,
  fc.array(filterValue, { maxLength: 4 }),
  fc.dictionary(
    fc.constantFrom('eq', 'neq', 'in', 'gte', 'lte', 'or', 'like'),
    fc.oneof(filterValue, fc.array(filterValue, { maxLength: 3 })),
    { maxKeys: 2 },
  ),
);
const filters = fc.dictionary(
  fc.oneof(fc.constantFrom(...FILTER_FIELDS), fc.constantFrom('and', 'or', 'sec_cik'), fc.string({ maxLength: 8 })),
  filterForm,
  { maxKeys: 4 },
);

const validish = fc.record(
  {
    query: queryText,
    mode: modeArb,
    effort: effortArb,
    metadata_filters: fc.option(filters),
    include: includeArb,
    retrieval: fc.option(
      fc.record(
        {
          max_evidence: fc.option(fc.integer({ min: 1, max: 8 })),
          max_evidence_tokens: fc.option(fc.integer({ min: 1, max: 6000 })),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ['query'] },
);

type Json = unknown;
/** One structural mutation at a random path: set a random value, delete a key, or add an unexpected key. */
const mutation = fc.record({
  depth: fc.nat({ max: 3 }),
  pick: fc.nat(),
  op: fc.constantFrom('set', 'delete', 'add', 'legacy'),
  key: fc.oneof(
    fc.constantFrom('filters', '__proto__', 'constructor', 'query', 'mode', 'max_evidence'),
    fc.string({ maxLength: 6 }),
  ),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(0, -1, 1.5, 1e308, null, true, '', [], {})),
});

interface Mutation {
  depth: number;
  pick: number;
  op: string;
  key: string;
  value: Json;
}

function mutate(body: Json, m: Mutation): Json {
  const root = structuredClone(body) as Record<string, Json>;
  let target: Record<string, Json> = root;
  for (let d = 0; d < m.depth; d++) {
    const objects = Object.values(target).filter(
      (v): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v),
    );
    if (!objects.length) break;
    target = objects[m.pick % objects.length]!;
  }
  const keys = Object.keys(target);
  const existing = keys.length ? keys[m.pick % keys.length]! : m.key;
  if (m.op === 'set') target[existing] = m.value;
  else if (m.op === 'delete') delete target[existing];
  else if (m.op === 'legacy') root.filters = m.value;
  else Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
  return root;
}

async function send(body: string) {
  const result = await query(body);
  expect(ALLOWED.has(result.status), `${result.status} for ${body.slice(0, 300)}`).toBe(true);
  return result;
}

describe('fuzzing POST /query (never a 5xx, always the contract)', () => {
  // Generous timeouts: 2,000 requests in all, on a shared 2-core machine; time is measured, not asserted.
  it('valid-looking bodies with random filters, includes and caps: 200 or a 422 envelope; caps honoured', async () => {
    await fc.assert(
      fc.asyncProperty(validish, async (body) => {
        const { status, json } = await send(JSON.stringify(body));
        if (status !== 200) return;
        const cap = body.retrieval?.max_evidence_tokens;
        if (cap && json.evidence_budget) expect(json.evidence_budget.estimated_tokens).toBeLessThanOrEqual(cap);
        const maxChains = body.retrieval?.max_evidence;
        if (maxChains && json.evidence)
          expect(json.evidence.match(/<evidence_chain /g)!.length).toBeLessThanOrEqual(maxChains);
      }),
      { numRuns: 300, seed: 20261121 },
    );
  }, 240_000);

  it('mutated bodies (random values, deleted and added keys, __proto__, the legacy key): never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(validish, fc.array(mutation, { minLength: 1, maxLength: 3 }), async (body, ms) => {
        const mutated = ms.reduce<Json>((b, m) => mutate(b, m), body);
        await send(JSON.stringify(mutated));
      }),
      { numRuns: 500, seed: 20261122 },
    );
  }, 240_000);

  it('arbitrary JSON values and arbitrary text as the body: a 422 envelope or a valid answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        async (text) => {
          await send(text);
        },
      ),
      { numRuns: 800, seed: 20261123 },
    );
  }, 240_000);

  it('arbitrary bytes (invalid UTF-8 included) are a 422 MALFORMED_JSON or a valid answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const res = await call('/query', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bytes,
        });
        const { status } = await expectConforms(res, 'POST', `${BASE}/query`);
        expect(ALLOWED.has(status)).toBe(true);
      }),
      { numRuns: 400, seed: 20261124 },
    );
  }, 240_000);
});
