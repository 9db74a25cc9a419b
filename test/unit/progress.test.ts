import { describe, expect, it } from 'vitest';
import { formatDuration, progressLine, throttledLog } from '../../index-builder/cli/progress';

describe('build progress off a terminal (index-builder/cli/progress.ts)', () => {
  it('writes at most one line per 30 s while a stage runs, and a closing line', () => {
    let now = 1_000;
    const lines: string[] = [];
    const log = throttledLog(
      'segment',
      (l) => lines.push(l),
      () => now,
    );
    for (let done = 1; done <= 100; done++) {
      now += 1_000; // one filing a second
      log.update(done, 100);
    }
    log.stop();
    // Updates from t=2 s to t=101 s: lines at t=32, 62 and 92 s (30 s apart), then the closing one. 31 done in 30 s
    // is 1.03/s, so 69 left is 67 s.
    expect(lines).toEqual([
      'segment: 31/100 (31.0%), 1.0/s, elapsed 30s, ETA 1m07s',
      'segment: 61/100 (61.0%), 1.0/s, elapsed 1m00s, ETA 38s',
      'segment: 91/100 (91.0%), 1.0/s, elapsed 1m30s, ETA 9s',
      'segment: 100/100 (100.0%), 1.0/s, elapsed 1m39s, ETA 0s',
    ]);
  });

  it('says nothing for a stage that never started, and writes a short stage once, when it ends', () => {
    let now = 0;
    const lines: string[] = [];
    throttledLog(
      'publish',
      (l) => lines.push(l),
      () => now,
    ).stop();
    expect(lines).toEqual([]);
    const log = throttledLog(
      'shards',
      (l) => lines.push(l),
      () => now,
    );
    for (let i = 1; i <= 3; i++) {
      log.update(i, 3);
      now += 2_000;
    }
    log.stop();
    log.stop();
    expect(lines).toEqual(['shards: 3/3 (100.0%), 0.5/s, elapsed 6s, ETA 0s']);
  });

  it('does not repeat the last line on stop when nothing moved since', () => {
    let now = 0;
    const lines: string[] = [];
    const log = throttledLog(
      'fetch',
      (l) => lines.push(l),
      () => now,
    );
    log.update(0, 10);
    now = 45_000;
    log.update(5, 10);
    log.stop();
    expect(lines).toEqual(['fetch: 5/10 (50.0%), 0.1/s, elapsed 45s, ETA 45s']);
  });

  it('formats durations and an unknown rate', () => {
    expect([0, 59_400, 75_000, 3_725_000].map(formatDuration)).toEqual(['0s', '59s', '1m15s', '1h02m05s']);
    expect(progressLine('segment', 0, 20, 5_000)).toBe('segment: 0/20 (0.0%), 0.0/s, elapsed 5s, ETA unknown');
    expect(progressLine('embed', 5000, 20000, 100_000)).toBe(
      'embed: 5000/20000 (25.0%), 50/s, elapsed 1m40s, ETA 5m00s',
    );
  });
});
