import { readCorpus } from '../index-builder/segment/read-corpus';
import { splitColumns, parseMonthDays } from '../index-builder/statements/table-facts';
import { MONTH_RE } from '../index-builder/statements/table-facts';
const filings = await readCorpus('/work/shared/corpus/filings');
const re = new RegExp(`^${MONTH_RE}\\s+\\d{1,2},?$`, 'i');
let n = 0; const docs = new Map<string, number>(); const firsts = new Map<string, number>();
for (const f of filings) for (const p of f.pages) for (const line of p.split('\n')) {
  const cols = splitColumns(line);
  if (cols.length < 2 || parseMonthDays(line)) continue;
  if (re.test(cols[0]!) || !cols.slice(1).every((c) => re.test(c))) continue;
  if (!/^\(.*(millions|thousands|billions)/i.test(cols[0]!)) continue;
  n++; docs.set(f.doc.doc_id, (docs.get(f.doc.doc_id) ?? 0) + 1);
  const k = cols[0]!.replace(/\d+/g, '#').slice(0, 60); firsts.set(k, (firsts.get(k) ?? 0) + 1);
}
console.log(n, docs.size);
console.log([...firsts].sort((a, b) => b[1] - a[1]).slice(0, 40));
console.log([...docs].sort((a, b) => b[1] - a[1]).slice(0, 20));
