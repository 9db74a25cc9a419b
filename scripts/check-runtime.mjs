// Fails fast when a script runs on a Node other than the one the project pins (package.json devDependencies.node).
// npm puts node_modules/.bin first on PATH for every script, so `node` there is the pinned Node 24 even on a
// machine whose own Node is older; this check catches a script started some other way (e.g. `npx tsx` from a
// shell whose PATH skips node_modules/.bin).
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const pinned = pkg.devDependencies?.node;
const running = process.versions.node;
if (pinned && running !== pinned) {
  console.error(
    `check-runtime: this script runs on Node ${running}, but the project pins Node ${pinned}.\n` +
      `Run it through npm (npm test, npm start, npm run ...), which puts node_modules/.bin/node first on PATH,\n` +
      `or run \`npm install\` first if node_modules/.bin/node is missing.`,
  );
  process.exit(1);
}
console.log(`check-runtime: Node ${running} (pinned ${pinned})`);
