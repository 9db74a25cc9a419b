import { writeFileSync } from 'node:fs';
const root = process.argv[2]!;
const { readCorpus } = await import(`${root}/index-builder/segment/read-corpus`);
const { segmentFiling } = await import(`${root}/index-builder/segment/segment`);
const st = await import(`${root}/index-builder/statements/statements`);
const filings = await readCorpus('/work/shared/corpus/filings');
const out: string[] = [];
for (const f of filings) {
  const w = st.wrappingText ? st.wrappingText(f.pages) : undefined;
  for (const section of segmentFiling(f.doc.form_type, f.pages))
    for (const s of st.extractStatements(section, f.doc.form_type, w)) if (s.kind === 'table_row') out.push(`${f.doc.doc_id}\t${s.page}\t${s.text}`);
}
writeFileSync(process.argv[3]!, out.join('\n'));
console.log(root, out.length);
