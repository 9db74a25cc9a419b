import type { Condition } from '../filters/parse';
import { lexicalQuery, type LexicalQuery } from '../question/terms';
import type { QuestionAnalysis } from '../question/analyze';
import type { Facet } from './facets';
import type { RequirementSet } from './requirements';

/**
 * The retrieval passes of one request, as a plain value: what runQuery executes, what the trace
 * and the log report, what tests pin per mode. Each pass is one retrieval (plus the ranking preference's own pass
 * when the question names a section or quarter) whose chains join those of the passes before it as `merge` says.
 */
export type PassPurpose =
  /** The question under the request's filters (caller's and inferred). */
  | 'question'
  /** Basic mode: the question over the filings of the companies and years it names (a prior, never a filter). */
  | 'route'
  /** Basic mode: the question over the best shards of the whole index, when the routed pass leaves room. */
  | 'fill'
  /** Soft periods: the later 10-Ks that restate a named fiscal year. */
  | 'later_years'
  /** A question that names no period: the named companies' latest annual reports, ranked before the other filings. */
  | 'latest'
  /** One line item a computed answer needs (src/plan/facets.ts). */
  | 'line_item'
  /** One filing of an issuer's figures across filings. */
  | 'filing'
  /** One requirement of an agentic plan (src/plan/requirements.ts). */
  | 'requirement';

/**
 * How a pass's chains join the chains so far:
 * - `first`: they are the chains so far;
 * - `below`: merged after them, each earlier chain ranked as if RANKING.preferenceBonus higher, repeated claims
 * dropped;
 * - `fill`: the same, and the pass runs only when the chains so far are fewer than the effort limits keep;
 * - `round_robin`: consecutive such passes are merged with the chains so far (when any) one chain each in turn.
 */
export type PassMerge = 'first' | 'below' | 'fill' | 'round_robin';

export interface RetrievalPass {
  id: string;
  purpose: PassPurpose;
  /** What the pass is for, in words (agentic mode's retrieval_plan labels). */
  label: string;
  /** Text the pass retrieves with (the question, or a focused text the plan wrote). */
  query: string;
  /** Its lexical query: the question's analysis, or the focused text's own. */
  lexical: LexicalQuery;
  conditions: Condition[];
  /** Catalog sources the pass may search, in catalog order; absent = what its conditions allow. */
  sources?: number[];
  merge: PassMerge;
}

export interface PassInput {
  mode: 'basic' | 'research' | 'agentic_research';
  analysis: Pick<QuestionAnalysis, 'text' | 'lexical'>;
  /** The request's filters: the caller's and (research, agentic) the inferred ones. */
  conditions: Condition[];
  callerConditions: Condition[];
  /** Basic mode: the companies and years the question names, as conditions (empty when it names none). */
  basicRoute: Condition[];
  /** Soft periods (filters/infer.ts): the later years' conditions, or null. */
  widened: { conditions: Condition[] } | null;
  /** A question that names no period (src/plan/periods.ts latestAnnualSources): those sources, or empty. */
  latest: readonly number[];
  facets: readonly Facet[];
  requirements: RequirementSet;
}

const sortedSources = (s: ReadonlySet<number> | undefined) => (s ? { sources: [...s].sort((a, b) => a - b) } : {});

/** The passes of a request, in execution order. */
export function planPasses(input: PassInput): RetrievalPass[] {
  const question = input.analysis.text;
  const withLexical = (pass: Omit<RetrievalPass, 'lexical'>): RetrievalPass => ({
    ...pass,
    lexical: pass.query === question ? input.analysis.lexical : lexicalQuery(pass.query),
  });
  return plainPasses(input).map(withLexical);
}

function plainPasses(input: PassInput): Omit<RetrievalPass, 'lexical'>[] {
  const question = input.analysis.text;
  if (input.requirements.decomposed) {
    return input.requirements.requirements.map((r) => ({
      id: r.id,
      purpose: 'requirement',
      label: `${r.id}: ${r.label}`,
      query: r.query,
      conditions: r.conditions,
      ...sortedSources(r.sources),
      merge: 'round_robin',
    }));
  }
  // A line item of a question that names no period is read from the latest annual reports.
  const latestSources = input.latest.length ? new Set(input.latest) : undefined;
  const facetPasses = (conditions: Condition[]): Omit<RetrievalPass, 'lexical'>[] =>
    input.facets.map((f) => ({
      id: f.id,
      purpose: f.sources ? 'filing' : 'line_item',
      label: f.sources ? `filing ${f.id}` : `line item ${f.id}${latestSources ? ', latest annual report' : ''}`,
      query: f.query,
      conditions,
      ...sortedSources(f.sources ?? latestSources),
      merge: 'round_robin',
    }));
  // A question that names no period reads the latest annual reports first; the passes after it rank below them.
  const latest = (conditions: Condition[]): Omit<RetrievalPass, 'lexical'>[] =>
    input.latest.length
      ? [
          {
            id: 'latest',
            purpose: 'latest',
            label: 'original question, latest annual report',
            query: question,
            conditions,
            ...sortedSources(latestSources),
            merge: 'first',
          },
        ]
      : [];
  const after: PassMerge = input.latest.length ? 'below' : 'first';
  if (input.mode === 'basic') {
    if (!input.basicRoute.length)
      return [
        {
          id: 'question',
          purpose: 'question',
          label: 'original question',
          query: question,
          conditions: [],
          merge: 'first',
        },
      ];
    return [
      ...latest(input.basicRoute),
      {
        id: 'route',
        purpose: 'route',
        label: 'original question, in the filings it names',
        query: question,
        conditions: input.basicRoute,
        merge: after,
      },
      {
        id: 'fill',
        purpose: 'fill',
        label: 'original question, whole index',
        query: question,
        conditions: [],
        merge: 'fill',
      },
      ...facetPasses(input.basicRoute),
    ];
  }
  return [
    ...latest(input.conditions),
    {
      id: 'question',
      purpose: 'question',
      label: 'original question',
      query: question,
      conditions: input.conditions,
      merge: after,
    },
    ...(input.widened
      ? [
          {
            id: 'later_years',
            purpose: 'later_years',
            label: 'original question, later annual reports',
            query: question,
            conditions: [...input.callerConditions, ...input.widened.conditions],
            merge: 'below',
          } satisfies Omit<RetrievalPass, 'lexical'>,
        ]
      : []),
    ...facetPasses(input.conditions),
  ];
}
