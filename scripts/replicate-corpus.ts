/**
 * Replicates a page-text corpus N times with renamed issuers, to measure how the builder and the Worker scale:
 *
 *   npx tsx scripts/replicate-corpus.ts --from ../shared/corpus/filings --factor 4 --out /tmp/corpus-4x
 *
 * Copy 1 is the corpus as it is; copy k (2..N) renames every issuer so it is a distinct company to the index: ticker
 * MMM -> MMM<k>, company "3M" -> "Replica <k> of 3M", CIK + k x 10^8, doc_id <id>__R<k>. Page text is unchanged (the
 * text still names the original company; the index knows the copy by its metadata). Pages stay in document order,
 * so the output streams like the input. Writes <out>/documents.jsonl and <out>/pages.jsonl.gz; nothing in the repo.
 * `--exclude <doc_id,...>` leaves filings out (with `--factor 1`: the corpus one filing short, which
 * bench/incremental.ts builds before adding that filing back).
 */
import { createReadStream, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { parseFlags, runWithUsage, UsageError } from '../index-builder/cli/cli-args';

interface Doc {
  doc_id: string;
  ticker: string;
  company: string;
  cik: string | null;
  [key: string]: unknown;
}

export function renameDoc(doc: Doc, copy: number): Doc {
  if (copy === 1) return doc;
  return {
    ...doc,
    doc_id: `${doc.doc_id}__R${copy}`,
    ticker: `${doc.ticker}${copy}`,
    // The copy's name must not contain the original's words where they would be an alias ("Apple Inc. Replica 2"
    // would answer to "Apple"): a question naming Apple then scopes to Apple alone, as it does at 1x.
    company: `Replica ${copy} of ${doc.company}`,
    cik: doc.cik === null ? null : String(Number(doc.cik) + copy * 100_000_000),
  };
}

export const REPLICATE_USAGE = `usage: npx tsx scripts/replicate-corpus.ts --from <filings dir> --out <dir> [--factor \
n] [--exclude doc_id,...]
  --from <dir>      a page-text corpus (documents.jsonl, pages.jsonl(.gz))
  --out <dir>       where the replicated corpus is written
  --factor <n>      how many copies (default 4)
  --exclude <ids>   comma-separated doc_ids to leave out
  -h, --help        this text`;

export function parseReplicateArgs(argv: readonly string[]) {
  const { values } = parseFlags(argv, {
    from: { type: 'string' },
    out: { type: 'string' },
    factor: { type: 'string' },
    exclude: { type: 'string' },
  });
  const factor = Number(values.factor ?? '4');
  if (!values.from || !values.out) throw new UsageError('--from and --out are required');
  if (!Number.isInteger(factor) || factor < 1)
    throw new UsageError(`--factor needs a positive integer, got "${values.factor}"`);
  return {
    from: resolve(values.from),
    out: resolve(values.out),
    factor,
    exclude: (values.exclude ?? '').split(',').filter(Boolean),
  };
}

/** Writes the corpus in `from` `factor` times (renamed copies) to `out`, without the filings in `exclude`. */
export async function replicateCorpus(
  from: string,
  out: string,
  factor: number,
  exclude: readonly string[] = [],
): Promise<{ filings: number; pages: number }> {
  mkdirSync(out, { recursive: true });
  const left = new Set(exclude);
  const all = readFileSync(join(from, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Doc);
  const unknown = exclude.filter((id) => !all.some((d) => d.doc_id === id));
  if (unknown.length) throw new Error(`--exclude: no filing ${unknown.join(', ')} in ${from}`);
  const docs = all.filter((d) => !left.has(d.doc_id));
  const docLines: string[] = [];
  for (let k = 1; k <= factor; k++) for (const d of docs) docLines.push(JSON.stringify(renameDoc(d, k)));
  writeFileSync(join(out, 'documents.jsonl'), `${docLines.join('\n')}\n`);

  const gzip = createGzip({ level: 1 });
  const file = createWriteStream(join(out, 'pages.jsonl.gz'));
  gzip.pipe(file);
  let pages = 0;
  for (let k = 1; k <= factor; k++) {
    const input = createReadStream(join(from, 'pages.jsonl.gz')).pipe(createGunzip());
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { doc_id: string };
      if (left.has(row.doc_id)) continue;
      const text = k === 1 ? line : JSON.stringify({ ...row, doc_id: `${row.doc_id}__R${k}` });
      if (!gzip.write(`${text}\n`)) await new Promise((r) => gzip.once('drain', r));
      pages++;
    }
  }
  gzip.end();
  await finished(file);
  return { filings: docs.length * factor, pages };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runWithUsage(REPLICATE_USAGE, async () => {
    const { from, out, factor, exclude } = parseReplicateArgs(process.argv.slice(2));
    const { filings, pages } = await replicateCorpus(from, out, factor, exclude);
    console.log(`replicated ${filings / factor} filings x ${factor} = ${filings} filings, ${pages} pages -> ${out}`);
  }).then((code) => (process.exitCode = code));
}
