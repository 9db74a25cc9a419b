import { runQuery } from '/work/main/src/core/run-query';
import { ResearchRequest } from '/work/main/src/schema/request';
import { normalizeQuery } from '/work/main/src/text/normalize';
import { openFileIndex } from '/work/main/test/support/file-index';
const dir = process.argv[2]!;
const qs = ['What is the FY2018 capital expenditure amount (in USD millions) for 3M?', 'What was Nike total current assets at the end of FY2019?', 'Who are Lockheed Martin principal customers?'];
for (const [i, q] of qs.entries()) {
  const reader = openFileIndex(dir);
  const req = ResearchRequest.parse({ query: q, mode: 'research', retrieval: { max_evidence_tokens: 4000 } });
  const t = performance.now();
  await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  console.log(i, 'cold reader', (performance.now() - t).toFixed(1), 'ms');
  const t2 = performance.now();
  await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  console.log(i, 'warm reader', (performance.now() - t2).toFixed(1), 'ms');
}
