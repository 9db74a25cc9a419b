import type { EdgeKind, EpistemicStatus, StatementKind } from '../../index-format/types';
import { normalizeLabel } from '../statements/consensus';
import type { TableFact } from '../statements/table-facts';

/** What the graph needs to know of one statement of a shard. */
export interface GraphInput {
  text: string;
  kind: StatementKind;
  status: EpistemicStatus;
  itemTag: string;
  filing: number;
  metrics: readonly number[];
  fact?: TableFact;
  /** Statements of its filing it points at, as offsets from its own index (index-builder/segment/references.ts). */
  refers?: readonly number[];
}

/** Edges kept per statement and kind: chains are short paths, so a few good neighbours are enough. */
export const MAX_EDGES_PER_KIND = 2;
/** Candidate sentences scored per metric and filing (MD&A can mention revenue hundreds of times). */
const MAX_CANDIDATES = 300;

const MDNA = /^(?:10K-Item-7A?|10Q-PartI-Item-2|10Q-PartI-Item-3)$/;

/** Printed forms of a table value a sentence may quote: "1,577", "1.6 billion" for 1,577 million. */
function quotedForms(fact: TableFact): string[] {
  const out: string[] = [];
  for (const c of fact.cells.slice(0, 2)) {
    if (c.value === null || c.value === 0) continue;
    const digits = c.raw.replace(/[()$%—–-]/g, '');
    if (digits.replace(/[^\d]/g, '').length >= 2) out.push(digits);
    const abs = Math.abs(c.value);
    if (fact.scale === 'millions' && abs >= 1000) out.push(`${(abs / 1000).toFixed(1)} billion`);
  }
  return out;
}

function yearsOf(fact: TableFact): string[] {
  const y = fact.cells[0]?.period ? /((?:19|20)\d\d)/.exec(fact.cells[0].period)?.[1] : undefined;
  return y ? [y] : [];
}

/**
 * Edges between the statements of one shard (one issuer and fiscal year: its 10-K and 10-Qs), local ids:
 * - explains: a table fact <-> the MD&A sentences of the same filing naming its metric, best first (quoting one of
 *   its values, then naming its year); stored both ways, so a chain can start from either.
 * - outlook: a table fact or an MD&A sentence -> forward-looking statements (PREDICTION) of the same filing naming
 *   the same metric.
 * - period: a table fact -> the row with the same label in another filing of the shard (a 10-Q's quarter and the
 *   10-K's year).
 * - refers: an item that answers by pointing at a note ("see Note 21, incorporated by reference") -> the note's
 *   opening sentences (index-builder/segment/references.ts), so the chain the pointer anchors shows the disclosure.
 * Edges never leave the shard, so following them loads nothing more; other years come in through consensus (the
 * prior-year columns of the same row, and the other filings that state it).
 */
export function buildShardEdges(statements: readonly GraphInput[]): { target: number; kind: EdgeKind }[][] {
  const edges: { target: number; kind: EdgeKind }[][] = statements.map(() => []);
  const mdnaByMetric = new Map<string, number[]>(); // `${filing}|${metric}` -> MD&A sentences (FACT/ASSESSMENT)
  const outlookByMetric = new Map<string, number[]>(); // `${filing}|${metric}` -> PREDICTION statements
  const rowsByLabel = new Map<string, number[]>(); // normalized label -> table rows
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const l = map.get(key);
    if (!l) map.set(key, [i]);
    else if (l.length < MAX_CANDIDATES) l.push(i);
  };
  statements.forEach((s, i) => {
    if (s.kind === 'table_row') {
      if (s.fact && s.metrics.length) add(rowsByLabel, normalizeLabel(s.fact.label), i);
      return;
    }
    for (const m of s.metrics) {
      if (s.status === 'PREDICTION') add(outlookByMetric, `${s.filing}|${m}`, i);
      else if ((s.status === 'FACT' || s.status === 'ASSESSMENT') && MDNA.test(s.itemTag))
        add(mdnaByMetric, `${s.filing}|${m}`, i);
    }
  });
  const link = (from: number, target: number, kind: EdgeKind) => {
    const list = edges[from]!;
    if (from === target || list.some((e) => e.target === target)) return;
    if (list.filter((e) => e.kind === kind).length >= MAX_EDGES_PER_KIND) return;
    list.push({ target, kind });
  };

  statements.forEach((s, i) => {
    const metric = s.metrics[0];
    if (!metric) return;
    const key = `${s.filing}|${metric}`;
    if (s.kind === 'table_row' && s.fact) {
      const forms = quotedForms(s.fact);
      const years = yearsOf(s.fact);
      const scored = (mdnaByMetric.get(key) ?? [])
        .map((j) => {
          const t = statements[j]!.text;
          const score = (forms.some((f) => t.includes(f)) ? 2 : 0) + (years.some((y) => t.includes(y)) ? 1 : 0);
          return { j, score };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.j - b.j);
      for (const { j } of scored.slice(0, MAX_EDGES_PER_KIND)) {
        link(i, j, 'explains');
        link(j, i, 'explains');
      }
      for (const j of (outlookByMetric.get(key) ?? []).slice(0, MAX_EDGES_PER_KIND)) link(i, j, 'outlook');
      for (const j of rowsByLabel.get(normalizeLabel(s.fact.label)) ?? []) {
        if (statements[j]!.filing !== s.filing) link(i, j, 'period');
      }
    } else if (s.kind === 'sentence' && s.status !== 'PREDICTION' && MDNA.test(s.itemTag)) {
      for (const j of (outlookByMetric.get(key) ?? []).slice(0, MAX_EDGES_PER_KIND)) link(i, j, 'outlook');
    }
  });
  // A filing's statements are contiguous and in order in its shard, so an offset lands in the same filing.
  statements.forEach((s, i) => {
    for (const d of s.refers ?? [])
      if (statements[i + d]?.filing === s.filing) edges[i]!.push({ target: i + d, kind: 'refers' });
  });
  return edges;
}
