import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/core/run-query';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../index-format/normalize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';
import { callWalk, moduleImports, resolveImport, typeScriptFiles } from '../support/source-code';
import { readFileSync } from 'node:fs';

/**
 * The plan is a value and src/plan/ only plans: the stages after planning (execute, select, render) read the plan's
 * data and apply it with their own functions (merge rules in src/core/merge.ts, coverage in src/core/coverage.ts),
 * so nothing in src/plan/ runs once planQuery has returned, and the plan carries no function for them to call.
 */
describe('src/plan/ runs only while planning', () => {
  it('only the modules that plan import src/plan/ at run time (everything else reads its types)', () => {
    const importers = typeScriptFiles('src')
      .filter((file) => !file.startsWith('src/plan/'))
      .filter((file) =>
        moduleImports(readFileSync(file, 'utf8'), { types: false }).some((i) =>
          resolveImport(file, i.specifier)?.startsWith('src/plan/'),
        ),
      );
    expect(importers).toEqual(['src/core/resolve-scope.ts', 'src/core/run-query.ts']);
  });

  it('runQuery calls into src/plan/ before it executes the plan, never after', () => {
    const { stops } = callWalk('src/core/run-query.ts', 'runQuery');
    const execute = stops.findIndex((s) => s.name === 'executePlan');
    const planning = stops.flatMap((s, i) => (s.module.startsWith('src/plan/') ? [i] : []));
    expect(execute).toBeGreaterThan(0);
    expect(planning.length).toBeGreaterThan(0);
    expect(planning.every((i) => i < execute)).toBe(true);
  });
});

/** Paths of the functions inside a value (objects, arrays, Sets and Maps walked). */
function functionsIn(value: unknown, path = 'plan', seen = new Set<unknown>()): string[] {
  if (typeof value === 'function') return [path];
  if (!value || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const entries: [string, unknown][] =
    value instanceof Map
      ? [...value].flatMap(([k, v], i) => [
          [`${path}<key ${i}>`, k],
          [`${path}<${String(k)}>`, v],
        ])
      : value instanceof Set
        ? [...value].map((v, i) => [`${path}<${i}>`, v])
        : Object.entries(value).map(([k, v]) => [`${path}.${k}`, v]);
  return entries.flatMap(([p, v]) => functionsIn(v, p, seen));
}

describe('the query plan is plain data', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  // Builds the sample index with the real builder: allow for a busy machine.
  beforeAll(async () => {
    sample = await buildSample();
  }, 120_000);
  afterAll(() => sample.dispose());

  // Questions whose plans hold each kind of rule: line-item and period facets, agentic requirements, a preferred
  // sub-pass, soft periods, and a basic-mode route.
  const questions: [mode: string, query: string][] = [
    ['research', 'Quillvale inventory turnover in FY2023'],
    ['research', 'How has Zenharrow revenue trended over the reported quarters?'],
    ['research', 'Quillvale net sales in Q1 2024'],
    ['research', 'What were Quarrystone risk factors in fiscal 2022?'],
    ['agentic_research', 'Compare Quillvale and Zenharrow net income in fiscal 2023'],
    ['basic', 'Zenharrow FY2022 COGS and inventories'],
  ];

  it('holds no function, and survives structuredClone unchanged', async () => {
    const reader = openFileIndex(sample.result.dir);
    const kinds = new Set<string>();
    for (const [mode, query] of questions) {
      const req = ResearchRequest.parse({ query, mode, effort: 'medium', retrieval: { max_evidence_tokens: 4000 } });
      const { trace } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      const plan = trace.plan;
      expect(functionsIn(plan), `${mode}: ${query}`).toEqual([]);
      expect(structuredClone(plan)).toEqual(plan);
      if (plan.coverage) kinds.add(plan.coverage.kind);
      if (plan.passes.some((p) => p.preferred)) kinds.add('preferred');
    }
    // The questions reach every rule the plan can carry (the check is not vacuous).
    expect([...kinds].sort()).toEqual(['facets', 'preferred', 'requirements']);
  });

  it('finds a function where there is one', () => {
    expect(functionsIn({ coverage: { facets: [{ covers: () => true }] } })).toEqual(['plan.coverage.facets.0.covers']);
    expect(functionsIn({ m: new Map([['a', new Set([() => 1])]]) })).toEqual(['plan.m<a><0>']);
  });
});
