/**
 * Progress of a long-running stage (segmenting, shards, publishing, fetching). On a terminal, a bar redrawn in place;
 * anywhere else (CI, piped output, a log file), plain lines: one every 30 s at most while the stage runs, and one
 * when it ends, each with done/total, the rate, the elapsed time and an estimate of what is left.
 */
import cliProgress from 'cli-progress';

export interface StageProgress {
  update(done: number, total: number): void;
  stop(): void;
}

export const LOG_INTERVAL_MS = 30_000;

/** 75 s -> "1m15s", 3725 s -> "1h02m05s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return `${h}h${String(m).padStart(2, '0')}m${String(sec).padStart(2, '0')}s`;
  return m ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/** One progress line: "segment: 120/20000 (0.6%), 4.0/s, elapsed 30s, ETA 1h22m50s". */
export function progressLine(label: string, done: number, total: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const pct = total > 0 ? ` (${((100 * done) / total).toFixed(1)}%)` : '';
  const left = total - done;
  const eta = left <= 0 ? 'ETA 0s' : rate > 0 ? `ETA ${formatDuration((left / rate) * 1000)}` : 'ETA unknown';
  return (
    `${label}: ${done}/${total}${pct}, ${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)}/s, elapsed ` +
    `${formatDuration(elapsedMs)}, ${eta}`
  );
}

/**
 * The off-terminal form: a line when `intervalMs` has passed since the stage began or since its last line, and a
 * closing line on stop (unless nothing changed since the last one). The clock starts at the first update.
 */
export function throttledLog(
  label: string,
  write: (line: string) => void,
  clock: () => number = () => performance.now(),
  intervalMs = LOG_INTERVAL_MS,
): StageProgress {
  let start: number | null = null;
  let lastLine = 0;
  let done = 0;
  let total = 0;
  let written = true;
  return {
    update(d, t) {
      const now = clock();
      if (start === null) lastLine = start = now;
      done = d;
      total = t;
      written = false;
      if (now - lastLine >= intervalMs) {
        write(progressLine(label, done, total, now - start));
        lastLine = now;
        written = true;
      }
    },
    stop() {
      if (start === null || written) return;
      write(progressLine(label, done, total, clock() - start));
      written = true;
    },
  };
}

function terminalBar(label: string, stream: NodeJS.WriteStream): StageProgress {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label.padEnd(9)} [{bar}] {value}/{total} {eta_formatted}`,
      stream,
      noTTYOutput: false,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** The progress of one stage on stderr: a bar on a terminal, throttled lines elsewhere. */
export function stageProgress(label: string, stream: NodeJS.WriteStream = process.stderr): StageProgress {
  return stream.isTTY ? terminalBar(label, stream) : throttledLog(label, (line) => stream.write(`${line}\n`));
}
