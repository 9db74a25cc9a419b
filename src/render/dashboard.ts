import { describeFilingDates, type EvidenceProfile } from './distribution';

/** Bar width in characters at 100%. */
export const BAR_WIDTH = 20;
/** Labels longer than this are shortened with "..." so bars stay aligned. */
const MAX_LABEL = 40;

export const DASHBOARD_TITLE = 'EVIDENCE METADATA DASHBOARD';

function label(raw: string): string {
  // Values come from the index: keep them on one line and unable to close the fence.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const value = raw.replace(/[`\u0000-\u001f\u007f]/g, ' ');
  return value.length > MAX_LABEL ? `${value.slice(0, MAX_LABEL - 3)}...` : value;
}

/** `#` for each 5% (rounded), `.` for the rest: ASCII only, so it survives any terminal or model tokenizer. */
export function bar(percent: number): string {
  const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round((percent / 100) * BAR_WIDTH)));
  return '#'.repeat(filled) + '.'.repeat(BAR_WIDTH - filled);
}

/**
 * `metadata_dashboard`: a title line, the evidence-path count, then one block per section (evidence strength,
 * ticker symbols, form types, fiscal years, fiscal year ends, item tags, sectors, sub-industries) with a bar and
 * a one-decimal percentage per value, and a filing-date line; wrapped in a fenced `text` block. Same numbers as
 * `metadata_distribution`.
 */
export function renderDashboard(p: EvidenceProfile): string {
  const lines = [
    DASHBOARD_TITLE,
    `Evidence paths: ${p.paths}`,
    `Entries: ${p.entries} | Cited statements: ${p.citations}`,
  ];
  for (const s of p.sections) {
    const unit = s.key === 'evidence_strength' ? 'share of entries' : 'share of cited statements';
    lines.push('', `${s.title} (${unit})`);
    if (!s.rows.length) {
      lines.push('  (none)');
      continue;
    }
    const width = Math.max(...s.rows.map((r) => label(r.value).length));
    for (const r of s.rows)
      lines.push(`  ${label(r.value).padEnd(width)}  ${bar(r.percent)}  ${r.percent.toFixed(1).padStart(5)}%`);
  }
  lines.push('', `Filing dates: ${describeFilingDates(p)}`);
  return ['```text', ...lines, '```'].join('\n');
}
