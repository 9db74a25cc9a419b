import { segmentFiling } from '../segment/segment';

/**
 * One labelled section start in a 10-Q (fixtures/eval-labels/tenq-labels.jsonl): page index and line index in the page.
 */
export interface TenQLabel {
  page: number;
  line: number;
  /** `10Q-Part<I|II>-Item-<n>`, or `END` where the items stop (the signatures, or an index after the exhibits). */
  tag: string;
}

export interface TenQScore {
  /** Non-space characters from the first labelled start to END, and those the segmenter put in the labelled item. */
  chars: number;
  correct: number;
  /** Non-space characters after END (signatures, certifications, exhibits) and those left out of every item. */
  afterEnd: number;
  afterEndUnassigned: number;
  /** Labelled starts (END excluded), predicted starts, and predicted starts on a labelled start's line with its tag. */
  labelled: number;
  predicted: number;
  matched: number;
  /** Labelled starts not found and predicted starts not labelled, as `page:line tag`, for reading. */
  missed: string[];
  spurious: string[];
  perItem: Map<string, { chars: number; correct: number }>;
}

const key = (page: number, line: number) => `${page}:${line}`;

/**
 * Segments one 10-Q with the real segmenter and scores it against hand labels: every line from the first labelled
 * start belongs to the last label at or before it (END: to no item). Character agreement counts the non-space
 * characters of the lines the segmenter put in that item (the heading line included); headings match when the
 * segmenter opens a section with the labelled tag on the labelled page and line (page ±0 lines).
 */
export function scoreTenQ(pages: readonly string[], labels: readonly TenQLabel[]): TenQScore {
  const sorted = [...labels].sort((a, b) => a.page - b.page || a.line - b.line);
  const assigned = new Map<string, string>();
  const starts = new Map<string, string>();
  for (const s of segmentFiling('10-Q', pages)) {
    assigned.set(key(s.heading.page, s.heading.lineNo), s.itemTag);
    starts.set(key(s.heading.page, s.heading.lineNo), s.itemTag);
    for (const l of s.lines) assigned.set(key(l.page, l.lineNo), s.itemTag);
  }
  const score: TenQScore = {
    chars: 0,
    correct: 0,
    afterEnd: 0,
    afterEndUnassigned: 0,
    labelled: 0,
    predicted: starts.size,
    matched: 0,
    missed: [],
    spurious: [],
    perItem: new Map(),
  };
  let k = -1;
  pages.forEach((text, page) => {
    text.split('\n').forEach((line, lineNo) => {
      while (
        k + 1 < sorted.length &&
        (sorted[k + 1]!.page < page || (sorted[k + 1]!.page === page && sorted[k + 1]!.line <= lineNo))
      )
        k++;
      if (k < 0) return;
      const n = line.replace(/\s+/g, '').length;
      if (!n) return;
      const truth = sorted[k]!.tag;
      const ours = assigned.get(key(page, lineNo));
      if (truth === 'END') {
        score.afterEnd += n;
        if (!ours) score.afterEndUnassigned += n;
        return;
      }
      score.chars += n;
      const per = score.perItem.get(truth) ?? { chars: 0, correct: 0 };
      per.chars += n;
      if (ours === truth) {
        per.correct += n;
        score.correct += n;
      }
      score.perItem.set(truth, per);
    });
  });
  for (const l of sorted) {
    if (l.tag === 'END') continue;
    score.labelled++;
    if (starts.get(key(l.page, l.line)) === l.tag) score.matched++;
    else score.missed.push(`${key(l.page, l.line)} ${l.tag}`);
  }
  const labelled = new Map(sorted.map((l) => [key(l.page, l.line), l.tag]));
  for (const [at, tag] of starts) if (labelled.get(at) !== tag) score.spurious.push(`${at} ${tag}`);
  return score;
}
