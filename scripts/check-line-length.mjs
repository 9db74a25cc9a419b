/**
 * Lines of code and configuration over 120 characters (counted in characters, not bytes). Biome wraps code at 120
 * but cannot break a string, a regular expression or a comment: this check names what is left for a person to break.
 * Generated files, fixtures, JSON data and Markdown prose are out of scope.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LIMIT = 120;
const CHECKED = /\.(?:ts|mts|mjs|js|toml|ya?ml)$/;
const SKIPPED = /^(?:fixtures|generated|artifacts)\/|(?:^|\/)package-lock\.json$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => CHECKED.test(f) && !SKIPPED.test(f));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    const length = [...line].length;
    if (length > LIMIT) long.push(`${file}:${i + 1}: ${length} characters`);
  });
}
if (long.length) {
  console.error(`${long.length} lines over ${LIMIT} characters:\n${long.join('\n')}`);
  process.exit(1);
}
console.log(`line length: ${files.length} files, no line over ${LIMIT} characters`);
