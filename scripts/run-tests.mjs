// Runs vitest and ends with the plain summary line CI reads: "Tests: N passed, N failed, N skipped".
// vitest's own summary is not one CI recognises, so we read its JSON report.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const out = '.vitest-results.json';
rmSync(out, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const r = spawnSync('npx', args, { stdio: 'inherit' });
let report;
try {
  report = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  console.error('vitest wrote no report');
  process.exit(r.status || 1);
}
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`\nTests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
const ok = r.status === 0 && report.numFailedTests === 0 && report.numPassedTests > 0;
process.exit(ok ? 0 : 1);
