#!/usr/bin/env node
// `npm run synth`: cdk8s synth, atomically. The cdk8s CLI empties its output
// folder before it runs the app, so a failed `cdk8s synth` leaves dist/ empty.
// This synthesizes into a fresh folder beside dist/ and swaps it in only when
// synth (the checks included) succeeds; on failure dist/ is untouched.
//   node scripts/synth.js [OUTDIR]   (default dist; extra cdk8s arguments after --)
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const dashdash = process.argv.indexOf('--');
const args = dashdash < 0 ? process.argv.slice(2) : process.argv.slice(2, dashdash);
const extra = dashdash < 0 ? [] : process.argv.slice(dashdash + 1);
const outdir = path.resolve(args[0] ?? 'dist');
// Beside the output folder, so that the swap is a rename on one filesystem.
const work = fs.mkdtempSync(path.join(path.dirname(outdir), '.synth-'));
const fresh = path.join(work, 'out');
const cli = path.join(__dirname, '..', 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');
const result = spawnSync(process.execPath, [cli, 'synth', '--no-check-upgrade', '-o', fresh, ...extra], {
  stdio: 'inherit',
  env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' },
});
try {
  if (result.status !== 0) {
    console.error(`synth failed (exit ${result.status ?? result.signal}): ${path.relative(process.cwd(), outdir) || '.'}/ is left as it was`);
    process.exitCode = result.status ?? 1;
  } else {
    if (fs.existsSync(outdir)) {
      fs.renameSync(outdir, path.join(work, 'previous'));
    }
    fs.renameSync(fresh, outdir);
    console.log(`wrote ${path.relative(process.cwd(), outdir) || '.'}/`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
