import type { Condition } from '../filters/parse';
import type { QuestionAnalysis } from '../question/analyze';
import { issuerNames, withoutIssuerNames } from '../question/terms';
import { chooseScope, routeScope, type Scope } from '../plan/scope';
import type { EffortLimits } from '../search/effort';
import type { IndexReader } from '../../index-format/index-reader';

/**
 * The issuers this request reads (src/plan/scope.ts): everything after it sees their sources and shards only. A
 * question that names no issuer is routed by its terms, which reads their blocks first.
 */
export async function resolveScope(
  reader: IndexReader,
  analysis: QuestionAnalysis,
  caller: readonly Condition[],
  effort: EffortLimits,
): Promise<Scope> {
  const plan = chooseScope(analysis, reader.directory, caller);
  if (plan.kind === 'route') {
    const { terms } = analysis.lexical;
    const { lexicon } = await reader.terms(terms);
    return routeScope(reader.directory, lexicon, plan.conditions, terms, effort.maxShards);
  }
  // Retrieval reads the question's term blocks first thing; they depend on its words only, so they are read now,
  // alongside the issuers' tables, not after them (one round trip to storage less; the reader keeps them). The
  // issuers' names are left out, as retrieval leaves them out once its filters name those issuers.
  const named = new Set(plan.tickers);
  const names = issuerNames(reader.directory.companies.filter((c) => named.has(c.ticker)));
  reader.terms(withoutIssuerNames(analysis.lexical.terms, names)).catch(() => undefined);
  return { tickers: plan.tickers, source: plan.source };
}
