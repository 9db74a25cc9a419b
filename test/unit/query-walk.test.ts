import { describe, expect, it } from 'vitest';
import { callWalk } from '../support/source-code';

/**
 * The query path reads one way (analyse -> plan -> execute -> assemble): following runQuery's calls visits each
 * stage's module once. A return is a call into a module the walk already stopped in: a stage reaching back into
 * another. Counted this way, the single runQuery before the split made 52 stops, 29 of them returns.
 */
describe('the query walk', () => {
  it('runQuery calls each stage once, in one direction', () => {
    const walk = callWalk('src/core/run-query.ts', 'runQuery');
    expect(walk.stops.map((s) => s.name)).toEqual([
      'parseMetadataFilters',
      'filterVocabulary',
      'analyzeQuestion',
      'effortLimits',
      'resolveScope',
      'planQuery',
      'executePlan',
      'renderEvidence',
      'selectEvidence',
      'renderResponse',
    ]);
    expect(walk.returns).toBeLessThan(16);
  });

  it('each stage stays small: few stops, fewer returns', () => {
    for (const [file, fn] of [
      ['src/plan/query-plan.ts', 'planQuery'],
      ['src/core/execute.ts', 'executePlan'],
      ['src/core/select-evidence.ts', 'selectEvidence'],
      ['src/render/response.ts', 'renderResponse'],
    ] as const) {
      const walk = callWalk(file, fn);
      expect(walk.returns, `${fn}: ${walk.stops.map((s) => `${s.name}@${s.module}`).join(', ')}`).toBeLessThan(16);
    }
  });
});
