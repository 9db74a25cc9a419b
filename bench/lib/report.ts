/** The markdown summary printed by npm run bench (every figure is also in the JSON file). */

type Num = number | null;
interface PageConfig {
  mode: string;
  effort: string;
  cap: number | null;
  n: number;
  gold_page_hit: Num;
  answer_support: Num;
  multi_page_n: number;
  all_gold_pages_covered: Num;
  mean_tokens: Num;
}
interface PageSet {
  n: number;
  configs: PageConfig[];
  baseline: PageConfig;
  comparison: {
    gold_page_hit: { ours: Num; baseline: Num; ratio: Num };
    answer_support: { ours: Num; baseline: Num; ratio: Num };
  };
}
interface Results {
  seconds: number;
  machine: { cpus: number; loadavg_at_end: number[] };
  index: {
    version: string;
    reused: boolean;
    build_seconds: number;
    build_peak_rss_mb: number;
    statements: number;
    artifact_bytes: number;
    shards: number;
  };
  baseline: { library: string; pages: number; index_seconds: number };
  financebench: PageSet & {
    by_type_capped?: Record<string, Record<string, { n: number; gold_page_hit: Num; answer_support: Num }>>;
  };
  holdout: PageSet & {
    by_kind_research_medium_capped: Record<string, { n: number; gold_page_hit: Num; answer_support: Num }>;
  };
  blind?: PageSet & {
    by_kind_research_medium_capped: Record<string, { n: number; gold_page_hit: Num; answer_support: Num }>;
  };
  docugami: {
    n: number;
    configs: { mode: string; cap: number | null; answer_support: Num; mean_fraction?: Num }[];
    comparison: { ours: Num; baseline: Num; ratio: Num };
  };
  finqabench: {
    n: number;
    ndcg_at_10: Num;
    baseline: { ndcg_at_10: Num };
    ratio: Num;
    statements_mapped_to_passages: Num;
  };
  finqa: {
    n: number;
    configs: { cap: number | null; all_gold_facts_present: Num; mean_gold_facts_present: Num; gold_page_hit: Num }[];
  };
  latency: {
    cold_first_query: { mode: string; client_ms: Num; worker_ms: Num; shards_loaded: Num }[];
    warm: {
      mode: string;
      effort: string;
      n: number;
      worker_ms_p50: Num;
      worker_ms_p95: Num;
      client_ms_p50: Num;
      client_ms_p95: Num;
      share_loading_shards: Num;
      hot_worker_ms_p50: Num;
    }[];
    warm_asked_twice?: {
      mode: string;
      effort: string;
      n: number;
      worker_ms_p50: Num;
      worker_ms_p95: Num;
      read_nothing: number;
    }[];
    requests: number;
    non_200: number;
    worker_restarts: number;
    transport_errors: { query: string; mode: string; error: string }[];
  };
  cache: { bytes_after_run: Num; max_bytes_seen: number; budget_bytes: number };
}

const pct = (x: Num) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: Num) => (x === null ? 'n/a' : String(x));
const capLabel = (c: number | null) => (c === null ? 'none' : c.toLocaleString('en-US'));
const mb = (b: Num) => (b === null ? 'n/a' : `${(b / 1048576).toFixed(1)} MiB`);

function pageSetTable(title: string, s: PageSet): string[] {
  const lines = [
    `### ${title} (${s.n} questions)`,
    '',
    '| mode | effort | token cap | gold-page hit | answer support | all gold pages (multi-page, n) | mean tokens |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of s.configs) {
    lines.push(
      `| ${c.mode} | ${c.effort} | ${capLabel(c.cap)} | ${pct(c.gold_page_hit)} | ${pct(c.answer_support)} | ` +
        `${pct(c.all_gold_pages_covered)} (${c.multi_page_n}) | ${num(c.mean_tokens)} |`,
    );
  }
  const b = s.baseline;
  lines.push(
    `| **baseline** page BM25 | - | ${capLabel(b.cap)} | ${pct(b.gold_page_hit)} | ${pct(b.answer_support)} ` +
      `| ${pct(b.all_gold_pages_covered)} (${b.multi_page_n}) | ${num(b.mean_tokens)} |`,
  );
  lines.push('');
  const cmp = s.comparison;
  lines.push(
    `Ours (research/medium, 4,000 tokens) vs baseline: gold-page hit ${pct(cmp.gold_page_hit.ours)} vs ` +
      `${pct(cmp.gold_page_hit.baseline)} ` +
      `(ratio **${num(cmp.gold_page_hit.ratio)}**); answer support ${pct(cmp.answer_support.ours)} vs ` +
      `${pct(cmp.answer_support.baseline)} (ratio **${num(cmp.answer_support.ratio)}**).`,
  );
  lines.push('');
  return lines;
}

export function renderMarkdown(r: Results, cap: number): string {
  const out: string[] = ['## Workerd run: quality against a page-BM25 baseline, latency, cache', ''];
  out.push(
    `Run: ${r.seconds} s on ${r.machine.cpus} cores (load average at end ${r.machine.loadavg_at_end.join(' / ')}). ` +
      `Index ${r.index.version}: ${r.index.statements.toLocaleString('en-US')} statements, ${r.index.shards} ` +
      `shards, ${mb(r.index.artifact_bytes)}; ` +
      `build ${r.index.build_seconds} s, peak RSS ${r.index.build_peak_rss_mb} ` +
      `MB${r.index.reused ? ' (recorded at build time; index reused)' : ' (built in this run)'}.`,
  );
  out.push(
    `Baseline: ${r.baseline.library} over ${r.baseline.pages.toLocaleString('en-US')} pages (indexed in ` +
      `${r.baseline.index_seconds} s), same inferred filters, ${cap.toLocaleString('en-US')}-token budget.`,
    '',
  );
  out.push('## Retrieval quality', '');
  out.push(...pageSetTable('FinanceBench dev', r.financebench));
  if (r.financebench.by_type_capped) {
    out.push(
      'FinanceBench dev by question type and answer form (medium effort, 4,000 tokens):',
      '',
      '| group | n | basic hit | basic support | research hit | research support |',
      '|---|---|---|---|---|---|',
    );
    for (const [g, v] of Object.entries(r.financebench.by_type_capped)) {
      const b = v['basic/medium']!;
      const rs = v['research/medium']!;
      out.push(
        `| ${g} | ${b.n} | ${pct(b.gold_page_hit)} | ${pct(b.answer_support)} | ${pct(rs.gold_page_hit)} | ` +
          `${pct(rs.answer_support)} |`,
      );
    }
    out.push('');
  }
  out.push(
    ...pageSetTable(
      'dev-2 (bench/dev-2, written for this project; used to choose parameters, so a second dev set)',
      r.holdout,
    ),
  );
  out.push(
    'dev-2 by kind (research/medium, 4,000 tokens):',
    '',
    '| kind | n | gold-page hit | answer support |',
    '|---|---|---|---|',
  );
  for (const [k, v] of Object.entries(r.holdout.by_kind_research_medium_capped))
    out.push(`| ${k} | ${v.n} | ${pct(v.gold_page_hit)} | ${pct(v.answer_support)} |`);
  out.push('');
  if (r.blind) {
    out.push(
      ...pageSetTable(
        'blind (bench/blind, written for this project about filings no dev question uses; never tuned on)',
        r.blind,
      ),
    );
    out.push(
      'blind by kind (research/medium, 4,000 tokens):',
      '',
      '| kind | n | gold-page hit | answer support |',
      '|---|---|---|---|',
    );
    for (const [k, v] of Object.entries(r.blind.by_kind_research_medium_capped))
      out.push(`| ${k} | ${v.n} | ${pct(v.gold_page_hit)} | ${pct(v.answer_support)} |`);
    out.push('');
  }
  out.push(
    `### docugami 10-Q dev (${r.docugami.n} questions): answer support`,
    '',
    'Answer support: every figure (or key term) of the answer is in the evidence; mean share: the share of ' +
      'them found, averaged.',
    '',
    '| mode | effort | token cap | answer support | mean share found |',
    '|---|---|---|---|---|',
  );
  for (const c of r.docugami.configs)
    out.push(
      `| ${c.mode} | medium | ${capLabel(c.cap)} | ${pct(c.answer_support)} | ` +
        `${c.mean_fraction === undefined ? '-' : num(c.mean_fraction)} |`,
    );
  out.push(
    `| **baseline** page BM25 | - | ${cap.toLocaleString('en-US')} | ${pct(r.docugami.comparison.baseline)} | - |`,
    '',
  );
  out.push(
    `Ours (research/medium, 4,000) vs baseline: ${pct(r.docugami.comparison.ours)} vs ` +
      `${pct(r.docugami.comparison.baseline)} (ratio **${num(r.docugami.comparison.ratio)}**).`,
    '',
  );
  out.push(
    `### FinQABench (${r.finqabench.n} judged queries): nDCG@10`,
    '',
    `Ours (research/medium, uncapped, scoped to Apple's FY2022 10-K) **${num(r.finqabench.ndcg_at_10)}**; ` +
      `baseline (top 10 pages) ${num(r.finqabench.baseline.ndcg_at_10)}; ratio **${num(r.finqabench.ratio)}**. ` +
      `Share of returned statements mapped to a passage: ${pct(r.finqabench.statements_mapped_to_passages)}.`,
    '',
  );
  out.push(
    `### FinQA sample dev (${r.finqa.n} records, their own pages indexed as a separate corpus)`,
    '',
    '| token cap | all gold facts present | mean share of gold facts | gold-page hit |',
    '|---|---|---|---|',
  );
  for (const c of r.finqa.configs)
    out.push(
      `| ${capLabel(c.cap)} | ${pct(c.all_gold_facts_present)} | ${pct(c.mean_gold_facts_present)} | ` +
        `${pct(c.gold_page_hit)} |`,
    );
  out.push('', '## Latency inside workerd (wrangler dev, local R2/KV)', '');
  out.push(
    'Cold first query (fresh wrangler dev, empty cache, artifacts from local R2; research question, 4,000 tokens):',
    '',
  );
  for (const c of r.latency.cold_first_query)
    out.push(
      `- ${c.mode}/medium: ${num(c.worker_ms)} ms in the Worker, ${num(c.client_ms)} ms at the client, ` +
        `${num(c.shards_loaded)} artifacts loaded`,
    );
  out.push(
    '',
    `Warm (every later request; ${r.latency.requests} requests, ${r.latency.non_200} not 200, ` +
      `${r.latency.transport_errors.length} without any response, wrangler restarted ` +
      `${r.latency.worker_restarts} times):`,
    '',
  );
  out.push(
    '| mode | effort | n | Worker p50 ms | Worker p95 ms | client p50 ms | client p95 ms | share loading ' +
      'artifacts | Worker p50 ms, all cached |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const l of r.latency.warm) {
    out.push(
      `| ${l.mode} | ${l.effort} | ${l.n} | ${num(l.worker_ms_p50)} | ${num(l.worker_ms_p95)} | ` +
        `${num(l.client_ms_p50)} | ${num(l.client_ms_p95)} | ${pct(l.share_loading_shards)} | ` +
        `${num(l.hot_worker_ms_p50)} |`,
    );
  }
  if (r.latency.warm_asked_twice) {
    out.push(
      '',
      'Warm, asked twice (each dev question asked twice in a row, the second ask timed; FinanceBench dev, ' +
        'dev-2, 40 docugami; 4,000 tokens):',
      '',
    );
    out.push(
      '| mode | effort | n | Worker p50 ms | Worker p95 ms | second asks that read nothing from storage |',
      '|---|---|---|---|---|---|',
    );
    for (const l of r.latency.warm_asked_twice)
      out.push(
        `| ${l.mode} | ${l.effort} | ${l.n} | ${num(l.worker_ms_p50)} | ${num(l.worker_ms_p95)} | ${l.read_nothing} |`,
      );
  }
  out.push(
    '',
    `Artifact cache after the run: ${mb(r.cache.bytes_after_run)} (max seen ${mb(r.cache.max_bytes_seen)}, ` +
      `budget ${mb(r.cache.budget_bytes)}).`,
  );
  return out.join('\n');
}
