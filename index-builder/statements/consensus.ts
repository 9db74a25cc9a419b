import type { ClaimOccurrence, EpistemicStatus, StatementKind } from '../../index-format/types';
import { claimKey } from '../../index-format/claims';
import type { Scale, TableFact } from './table-facts';

/** What consensus needs to know of a statement. */
export interface ConsensusInput {
  text: string;
  kind: StatementKind;
  status: EpistemicStatus;
  source: number;
  page: number;
  /** Dense filing number: occurrences within one filing never count as agreement. */
  filing: number;
  ticker: string;
  fact?: TableFact;
}

export interface ConsensusResult {
  /** Sparse: statement index -> other filings' occurrences of the same claim / of a different value for it. */
  agree: Map<number, ClaimOccurrence[]>;
  disagree: Map<number, ClaimOccurrence[]>;
  /** Claims stated by two or more filings (sentences + table cells counted per merged group). */
  mergedSentenceGroups: number;
  mergedTableRows: number;
  disagreeingRows: number;
}

/** At most this many other sources are kept per statement (risk factors repeat for a decade). */
export const MAX_OCCURRENCES = 12;
/** Sentences shorter than this are too generic to merge across filings ("Not applicable."). */
const MIN_SENTENCE_CHARS = 40;
const GENERIC_LABELS = new RegExp(
  '^(?:total|other|net|basic|diluted|other net|total other|other income|other expense|other assets' +
    '|other liabilities|adjustments|balance|balance at end of year|balance at beginning of year' +
    '|subtotal|net of tax|change)$',
);

/** 53-bit string hash (cyrb53): map keys stay numbers, so 800k claims do not keep 800k key strings alive. */
export function hash53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A row label for matching across filings: case, punctuation and footnote marks ignored. */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/\(\d\)|\[\d\]|\*+/g, ' ')
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const SCALE_FACTOR: Record<NonNullable<Scale>, number> = { thousands: 1e3, millions: 1e6, billions: 1e9 };

function absolute(value: number, raw: string, scale: Scale): { v: number; grain: number } {
  const factor = scale ? SCALE_FACTOR[scale] : 1;
  const decimals = /\.(\d+)/.exec(raw)?.[1]?.length ?? 0;
  return { v: value * factor, grain: factor * 10 ** -decimals };
}

function occurrence(s: ConsensusInput, note: string): ClaimOccurrence {
  return { source: s.source, page: s.page, status: s.status, note };
}

/**
 * Merges the same claim across filings (DESIGN.md section 4 "Entry"):
 * - sentences: identical text (case, spacing, punctuation ignored) in two or more filings, e.g. a risk factor
 *   repeated year after year;
 * - table rows: the same issuer, row label and column period in two filings. Every shared period must carry the
 *   same value (within the printing precision) for the rows to agree; a different value is a disagreement, kept
 *   with its source and both values, never merged. A label that carries two values inside one filing (two tables
 *   with an "Other" row) is ambiguous there and is left out.
 */
export function buildConsensus(statements: readonly ConsensusInput[]): ConsensusResult {
  const agree = new Map<number, ClaimOccurrence[]>();
  const disagree = new Map<number, ClaimOccurrence[]>();
  const push = (map: Map<number, ClaimOccurrence[]>, i: number, o: ClaimOccurrence) => {
    const list = map.get(i) ?? [];
    if (list.length >= MAX_OCCURRENCES || list.some((x) => x.source === o.source)) return;
    list.push(o);
    map.set(i, list);
  };

  // Sentences.
  const groups = new Map<number, number[]>();
  statements.forEach((s, i) => {
    if (s.kind !== 'sentence' || s.text.length < MIN_SENTENCE_CHARS) return;
    const key = hash53(`${s.ticker}|${claimKey(s.text)}`);
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  let mergedSentenceGroups = 0;
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const filings = new Set(g.map((i) => statements[i]!.filing));
    if (filings.size < 2) continue;
    mergedSentenceGroups++;
    for (const i of g)
      for (const j of g)
        if (statements[j]!.filing !== statements[i]!.filing) push(agree, i, occurrence(statements[j]!, ''));
  }
  groups.clear();

  // Table cells: key -> (statement, cell) entries; ambiguous (key, filing) pairs dropped.
  interface CellRef {
    stmt: number;
    cell: number;
    v: number;
    grain: number;
    unit: string | null;
  }
  const cells = new Map<number, CellRef[]>();
  statements.forEach((s, i) => {
    if (!s.fact) return;
    const label = normalizeLabel(s.fact.label);
    if (label.length < 6 || GENERIC_LABELS.test(label)) return;
    s.fact.cells.forEach((c, ci) => {
      if (c.value === null || !c.periodKey) return;
      const key = hash53(`${s.ticker}|${label}|${c.periodKey}`);
      const { v, grain } = absolute(
        c.value,
        c.raw,
        s.fact!.unit === '%' || s.fact!.unit === 'USD per share' ? null : s.fact!.scale,
      );
      const ref: CellRef = { stmt: i, cell: ci, v, grain, unit: s.fact!.unit };
      const list = cells.get(key);
      if (list) list.push(ref);
      else cells.set(key, [ref]);
    });
  });
  const cellKeysOf = new Map<number, number[]>(); // statement -> its usable cell keys
  for (const [key, list] of cells) {
    const byFiling = new Map<number, CellRef[]>();
    for (const r of list) {
      const f = statements[r.stmt]!.filing;
      const l = byFiling.get(f);
      if (l) l.push(r);
      else byFiling.set(f, [r]);
    }
    if (byFiling.size < 2) {
      cells.delete(key);
      continue;
    }
    const kept: CellRef[] = [];
    for (const refs of byFiling.values()) {
      const first = refs[0]!;
      if (refs.every((r) => Math.abs(r.v - first.v) <= 0.5 * Math.max(r.grain, first.grain))) kept.push(...refs);
    }
    cells.set(key, kept);
    for (const r of kept) {
      const l = cellKeysOf.get(r.stmt);
      if (l) l.push(key);
      else cellKeysOf.set(r.stmt, [key]);
    }
  }
  let mergedTableRows = 0;
  let disagreeingRows = 0;
  for (const [i, keys] of cellKeysOf) {
    const me = statements[i]!;
    const others = new Map<number, { same: string[]; diff: string[] }>();
    for (const key of keys) {
      const refs = cells.get(key)!;
      const mine = refs.find((r) => r.stmt === i)!;
      const cell = me.fact!.cells[mine.cell]!;
      const period = `${cell.group ? `${cell.group} ` : ''}${cell.period ?? cell.periodKey!}`;
      for (const r of refs) {
        const other = statements[r.stmt]!;
        if (other.filing === me.filing || r.unit !== mine.unit) continue;
        const o = others.get(r.stmt) ?? { same: [], diff: [] };
        if (Math.abs(r.v - mine.v) <= 0.5 * Math.max(r.grain, mine.grain)) o.same.push(period);
        else
          o.diff.push(`${period}: ${other.fact!.cells[r.cell]!.raw} there vs ${me.fact!.cells[mine.cell]!.raw} here`);
        others.set(r.stmt, o);
      }
    }
    let agreed = false;
    let disagreed = false;
    for (const [j, o] of [...others].sort((a, b) => a[0] - b[0])) {
      if (o.diff.length) {
        push(disagree, i, occurrence(statements[j]!, o.diff.join('; ')));
        disagreed = true;
      } else if (o.same.length) {
        push(agree, i, occurrence(statements[j]!, `same value for ${[...new Set(o.same)].join(', ')}`));
        agreed = true;
      }
    }
    if (agreed) mergedTableRows++;
    if (disagreed) disagreeingRows++;
  }
  return { agree, disagree, mergedSentenceGroups, mergedTableRows, disagreeingRows };
}
