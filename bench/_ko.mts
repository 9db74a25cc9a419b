import { readCorpus } from '../index-builder/segment/read-corpus';
import { segmentFiling } from '../index-builder/segment/segment';
import { extractStatements, wrappingText } from '../index-builder/statements/statements';
const filings = await readCorpus('/work/shared/corpus/filings');
const want = process.argv[2]!, pat = new RegExp(process.argv[3]!);
for (const f of filings) {
  if (f.doc.doc_id !== want) continue;
  const w = wrappingText(f.pages);
  for (const section of segmentFiling(f.doc.form_type, f.pages))
    for (const s of extractStatements(section, f.doc.form_type, w)) if (s.kind === 'table_row' && pat.test(s.text)) console.log(s.page, s.text.slice(0, 400));
}
