import { EPISTEMIC_STATUSES, type EpistemicStatus } from '../../index-format/types';
import { classifyStatus } from '../statements/status';

/** One hand-labelled statement: its text, the item it stands in, and the status a careful reader gives it. */
export interface LabelledStatement {
  text: string;
  item: string | null;
  label: EpistemicStatus;
  /** Where it came from (doc_id/page/offset for corpus references), for reports. */
  ref?: string;
}

export interface StatusReport {
  total: number;
  accuracy: number;
  /** Per status: statements the rules gave that status, how many of them the label confirms, and precision. */
  perStatus: Record<
    EpistemicStatus,
    { predicted: number; correct: number; labelled: number; precision: number | null; recall: number | null }
  >;
  errors: { ref: string | undefined; label: EpistemicStatus; predicted: EpistemicStatus; text: string }[];
}

/** Runs the status rules on a labelled sample and reports precision (and recall) per status. */
export function evaluateStatuses(sample: readonly LabelledStatement[]): StatusReport {
  const perStatus = Object.fromEntries(
    EPISTEMIC_STATUSES.map((s) => [s, { predicted: 0, correct: 0, labelled: 0, precision: null, recall: null }]),
  ) as StatusReport['perStatus'];
  const errors: StatusReport['errors'] = [];
  let correct = 0;
  for (const s of sample) {
    const predicted = classifyStatus(s.text, 'sentence', s.item);
    perStatus[predicted].predicted++;
    perStatus[s.label].labelled++;
    if (predicted === s.label) {
      perStatus[predicted].correct++;
      correct++;
    } else errors.push({ ref: s.ref, label: s.label, predicted, text: s.text });
  }
  for (const st of EPISTEMIC_STATUSES) {
    const p = perStatus[st];
    p.precision = p.predicted ? p.correct / p.predicted : null;
    p.recall = p.labelled ? p.correct / p.labelled : null;
  }
  return { total: sample.length, accuracy: sample.length ? correct / sample.length : 0, perStatus, errors };
}

/**
 * 95% Wilson score interval of a proportion k/n: unlike the normal approximation it stays inside [0, 1] and is honest
 * for the small n and extreme proportions of hand-labelled samples.
 */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function formatStatusReport(name: string, r: StatusReport): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
  const ci = (k: number, n: number) => (n ? `${pct(wilson(k, n)[0])}–${pct(wilson(k, n)[1])}` : 'n/a');
  const correct = Math.round(r.accuracy * r.total);
  const lines = [
    `${name}: ${r.total} labelled statements, accuracy ${pct(r.accuracy)} (95% CI ${ci(correct, r.total)})`,
    '| status | predicted | correct | precision | precision 95% CI | labelled | recall | recall 95% CI |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const st of EPISTEMIC_STATUSES) {
    const p = r.perStatus[st];
    lines.push(
      `| ${st} | ${p.predicted} | ${p.correct} | ${pct(p.precision)} | ${ci(p.correct, p.predicted)} | ` +
        `${p.labelled} | ${pct(p.recall)} | ${ci(p.correct, p.labelled)} |`,
    );
  }
  return lines.join('\n');
}
