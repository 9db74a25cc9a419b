import { EPISTEMIC_STATUSES, type EpistemicStatus } from '../../src/format/types';
import { classifyStatus } from '../status';

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
  perStatus: Record<EpistemicStatus, { predicted: number; correct: number; labelled: number; precision: number | null; recall: number | null }>;
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

export function formatStatusReport(name: string, r: StatusReport): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
  const lines = [`${name}: ${r.total} labelled statements, accuracy ${pct(r.accuracy)}`, '| status | predicted | correct | precision | labelled | recall |', '|---|---|---|---|---|---|'];
  for (const st of EPISTEMIC_STATUSES) {
    const p = r.perStatus[st];
    lines.push(`| ${st} | ${p.predicted} | ${p.correct} | ${pct(p.precision)} | ${p.labelled} | ${pct(p.recall)} |`);
  }
  return lines.join('\n');
}
