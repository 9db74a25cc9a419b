#!/usr/bin/env node
/**
 * npm run eval:entities — coverage and precision of the entity extraction (index-builder/entities) on the real
 * corpus (FILINGS_DIR, default ../shared/corpus/filings; skipped cleanly when absent).
 *   coverage: companies with at least one segment / product / counterparty, totals per kind, catalog bytes added;
 *   precision: hand labels in fixtures/eval-labels/entities-labels.jsonl ({ticker, kind, name, label: correct|wrong,
 *   note}), references only — no filing text — judged by reading the sentences that name each entity.
 *   recall: reference names read from 10 companies' latest 10-K in fixtures/eval-labels/entities-recall.jsonl.
 *   --sample N --seed S   print N entities per kind (seeded) with the sentences that support them, for labelling.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { companyAliases } from '../entities/aliases';
import { baseName, EntityCollector, type CompanyEntities } from '../entities/collect';
import { counterpartyCandidates } from '../entities/counterparties';
import { productCandidates } from '../entities/products';
import { namedSegmentCandidates, segmentNames } from '../entities/segments';
import { readCorpus } from '../segment/read-corpus';
import { segmentFiling } from '../segment/segment';
import { sharedDir } from '../shared-dir';
import { extractStatements } from '../statements/statements';
import { ENTITY_KINDS, entityMatcher, type EntityKind } from '../../index-format/entities';
import type { CatalogEntity } from '../../index-format/types';
import { mulberry32 } from '../vectors/embeddings';

const ROOT = resolve(import.meta.dirname, '../..');
export const ENTITY_LABELS = join(ROOT, 'fixtures/eval-labels/entities-labels.jsonl');
/**
 * Recall references: the segments and named major customers one reader found in 10 companies' latest 10-K
 * (Item 1), names only ({ticker, filing, kind: segment|customer, name, also: other spellings}).
 */
export const ENTITY_RECALL = join(ROOT, 'fixtures/eval-labels/entities-recall.jsonl');

export interface RecallRef {
  ticker: string;
  filing: string;
  kind: 'segment' | 'customer';
  name: string;
  also?: string[];
}

/** How many reference names the builder extracted (a segment as a segment, a customer as a customer counterparty). */
export function formatRecall(refs: readonly RecallRef[], found: Map<string, CompanyEntities>): string {
  const lines: string[] = [];
  for (const kind of ['segment', 'customer'] as const) {
    const rs = refs.filter((r) => r.kind === kind);
    const missed: string[] = [];
    for (const r of rs) {
      const keys = new Set([r.name, ...(r.also ?? [])].map((n) => baseName(n)));
      const hit = (found.get(r.ticker)?.entities ?? []).some(
        (e) =>
          (kind === 'segment' ? e.kind === 'segment' : e.kind === 'counterparty' && /^Customer/.test(e.description)) &&
          [e.name, ...(e.aliases ?? [])].some((n) => keys.has(baseName(n))),
      );
      if (!hit) missed.push(`${r.ticker}/${r.name}`);
    }
    lines.push(
      `${kind.padEnd(9)} recall ` +
        `${rs.length - missed.length}/${rs.length}${missed.length ? ` — missed: ${missed.join(', ')}` : ''}`,
    );
  }
  return lines.join('\n');
}

export interface EntityLabel {
  set?: string;
  ticker: string;
  kind: EntityKind;
  name: string;
  label: 'correct' | 'wrong';
  note?: string;
}

/** Runs the builder's entity stage alone (items -> statements -> collector) over a page-text corpus. */
export async function corpusEntities(
  filingsDir: string,
): Promise<{ found: Map<string, CompanyEntities>; companies: number; texts: Map<string, string[]> }> {
  const filings = await readCorpus(filingsDir);
  const collector = new EntityCollector();
  const texts = new Map<string, string[]>();
  const companies = new Map<string, { ticker: string; company: string; aliases: string[] }>();
  filings.forEach((f, fi) => {
    const d = f.doc;
    if (!companies.has(d.ticker))
      companies.set(d.ticker, { ticker: d.ticker, company: d.company, aliases: companyAliases(d.company, d.ticker) });
    const list = texts.get(d.ticker) ?? [];
    texts.set(d.ticker, list);
    const label =
      d.form_type === '10-Q' ? `FY${d.fiscal_year} ${d.fiscal_period} 10-Q` : `FY${d.fiscal_year} ${d.form_type}`;
    for (const section of segmentFiling(d.form_type, f.pages)) {
      const ref = { id: `${d.doc_id}:${section.itemTag}`, filing: fi, period: d.period_of_report, label };
      for (const s of extractStatements(section, d.form_type)) {
        list.push(s.text);
        if (s.kind === 'sentence') collector.observeSentence(d.ticker, s.text, ref);
        else if (s.fact) collector.observeTableRow(d.ticker, s.fact.label, ref);
      }
    }
  });
  const found = collector.finish(
    [...companies.values()].sort((a, b) => (a.ticker < b.ticker ? -1 : 1)),
    (t) => texts.get(t) ?? [],
  );
  return { found, companies: companies.size, texts };
}

function candidatesOf(text: string): string[] {
  return [
    ...segmentNames(text),
    ...[...namedSegmentCandidates(text), ...productCandidates(text), ...counterpartyCandidates(text)].map(
      (c) => c.name,
    ),
  ];
}

export function sampleEntities(
  found: Map<string, CompanyEntities>,
  perKind: number,
  seed: number,
): { ticker: string; entity: CatalogEntity }[] {
  const rand = mulberry32(seed);
  const out: { ticker: string; entity: CatalogEntity }[] = [];
  for (const kind of ENTITY_KINDS) {
    const all = [...found].flatMap(([ticker, r]) =>
      r.entities.filter((e) => e.kind === kind).map((entity) => ({ ticker, entity })),
    );
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    out.push(...all.slice(0, perKind));
  }
  return out;
}

export function formatCoverage(found: Map<string, CompanyEntities>, companies: number): string {
  const lines = [`companies in corpus: ${companies}`];
  for (const kind of ENTITY_KINDS) {
    const withKind = [...found.values()].filter((r) => r.entities.some((e) => e.kind === kind)).length;
    const total = [...found.values()].reduce((n, r) => n + r.entities.filter((e) => e.kind === kind).length, 0);
    lines.push(`${kind.padEnd(13)} companies ${String(withKind).padStart(3)}/${companies}  entities ${total}`);
  }
  const roles = new Map<string, number>();
  for (const r of found.values())
    for (const e of r.entities)
      if (e.kind === 'counterparty') {
        const role = /^(.*?) of /.exec(e.description)?.[1] ?? '?';
        roles.set(role, (roles.get(role) ?? 0) + 1);
      }
  lines.push(
    `counterparty roles: ${[...roles]
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${r} ${n}`)
      .join(', ')}`,
  );
  const listed = [...found.values()].filter((r) =>
    r.entities.some((e) => e.kind === 'segment' && e.description.includes(' listed in ')),
  ).length;
  lines.push(
    `segments from an explicit list: ${listed} companies; from recurring "the X segment" only: ` +
      `${[...found.values()].filter((r) => r.segments.length).length - listed}`,
  );
  // What the catalog gains: the entities array and the segment lists, as the JSON header stores them.
  const bytes = [...found.values()].reduce(
    (n, r) => n + JSON.stringify({ segments: r.segments, entities: r.entities }).length,
    0,
  );
  lines.push(`catalog bytes for entities (JSON): ${bytes}`);
  return lines.join('\n');
}

export function formatPrecision(labels: readonly EntityLabel[], found: Map<string, CompanyEntities>): string {
  const lines: string[] = [];
  // Each set is its own sample (a seeded draw, or a census of one role), so precision is printed per set.
  for (const set of [...new Set(labels.map((l) => l.set ?? 'labels'))]) {
    const inSet = labels.filter((l) => (l.set ?? 'labels') === set);
    lines.push(`set ${set}:`);
    for (const kind of ENTITY_KINDS) {
      const ls = inSet.filter((l) => l.kind === kind);
      if (!ls.length) continue;
      const ok = ls.filter((l) => l.label === 'correct').length;
      lines.push(`  ${kind.padEnd(13)} precision ${((100 * ok) / ls.length).toFixed(1)}% (${ok}/${ls.length})`);
    }
    const ok = inSet.filter((l) => l.label === 'correct').length;
    lines.push(`  ${'all'.padEnd(13)} precision ${((100 * ok) / inSet.length).toFixed(1)}% (${ok}/${inSet.length})`);
    // Labels stay in the computation even when a later rule change dropped the entity (labelled wrong ones are
    // typically the ones fixed): precision is that of the rules the sample was drawn from; stale ones are listed.
    const stale = inSet.filter(
      (l) => !found.get(l.ticker)?.entities.some((e) => e.kind === l.kind && e.name === l.name),
    );
    if (stale.length)
      lines.push(
        `  labels no longer extracted (entity changed since labelling): ${stale.length} — ` +
          `${stale.map((l) => `${l.ticker}/${l.name}`).join(', ')}`,
      );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const shared = sharedDir();
  const dir = process.env.FILINGS_DIR ?? (shared ? join(shared, 'corpus/filings') : '');
  if (!existsSync(join(dir, 'documents.jsonl'))) {
    console.log(`no corpus at ${dir}; set FILINGS_DIR (skipped)`);
    return;
  }
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : null;
  };
  const t0 = performance.now();
  const { found, companies, texts } = await corpusEntities(dir);
  console.log(`entity extraction over ${dir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(formatCoverage(found, companies));
  const n = arg('--sample');
  if (n) {
    for (const { ticker, entity } of sampleEntities(found, n, arg('--seed') ?? 1)) {
      console.log(`\n## ${ticker} ${entity.kind} ${JSON.stringify(entity.name)} — ${entity.description}`);
      const m = entityMatcher([entity.name]);
      const mentions = (texts.get(ticker) ?? []).filter((x) => m.mentioned(x).length);
      const stating = mentions.filter((x) => candidatesOf(x).some((c) => baseName(c) === baseName(entity.name)));
      for (const t of [...stating.slice(0, 2), ...mentions.filter((x) => !stating.includes(x)).slice(0, 1)])
        console.log(`   > ${t.slice(0, 320)}`);
    }
    return;
  }
  const labels = existsSync(ENTITY_LABELS)
    ? readFileSync(ENTITY_LABELS, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as EntityLabel)
    : [];
  console.log(`\nprecision on ${labels.length} hand-labelled entities (${ENTITY_LABELS}):`);
  console.log(formatPrecision(labels, found));
  if (existsSync(ENTITY_RECALL)) {
    const refs = readFileSync(ENTITY_RECALL, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as RecallRef);
    console.log(
      `\nrecall on ${refs.length} names read from ${new Set(refs.map((r) => r.ticker)).size} companies' ` +
        `latest 10-K (${ENTITY_RECALL}):`,
    );
    console.log(formatRecall(refs, found));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
