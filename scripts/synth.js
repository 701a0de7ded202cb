#!/usr/bin/env node
// `npm run synth`: cdk8s synth, atomically and safely. The cdk8s CLI deletes
// its output folder before it runs the app, so a failed `cdk8s synth` leaves
// dist/ empty, and `cdk8s synth -o .` deletes the project. This synthesizes
// into a fresh folder beside the output folder and swaps it in only when synth
// (the checks included) succeeds, and only into a folder it may own (see
// output-folder.js); on failure the output folder is untouched.
//   npm run synth [-- OUTDIR] [--no-validate ...]   default OUTDIR: dist
//   npm run --silent synth -- --stdout             the manifests on stdout, the checks' report on stderr
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, UsageError, claimOutputFolder, main, parseArguments, runCdk8s, synthesizeInto } = require('./output-folder');

const USAGE = 'usage: npm run synth [-- OUTDIR | --stdout] [--no-validate | --app CMD | ...]';

function parse(argv) {
  const { folder, flags, cdk8s } = parseArguments(argv, { flags: ['--stdout'], usage: USAGE });
  if (flags.has('--stdout') && folder !== undefined) {
    throw new UsageError(`--stdout writes no folder, but got the output folder ${JSON.stringify(folder)} too (${USAGE})`);
  }
  return { stdout: flags.has('--stdout'), outdir: folder, extra: cdk8s };
}

/** The manifests as one YAML stream: cdk8s' own --stdout runs the files together without `---`. */
function printManifests(folder) {
  const files = fs.readdirSync(folder).filter((f) => f.endsWith('.k8s.yaml')).sort();
  process.stdout.write(files.map((f) => fs.readFileSync(path.join(folder, f), 'utf-8')).join('---\n'));
}

function synth(argv) {
  const options = parse(argv);
  if (options.stdout) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-synth-'));
    try {
      // The CLI's report (and its progress) goes to stderr, so stdout is YAML only.
      const { status, refused } = runCdk8s(['-o', path.join(work, 'out'), ...options.extra], { stdout: 2 });
      if (status !== 0) {
        if (!refused) console.error(`synth failed (exit ${status}): nothing printed`);
        return refused ? 2 : status;
      }
      printManifests(path.join(work, 'out'));
      return 0;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const outdir = claimOutputFolder(options.outdir ?? 'dist', { kind: 'manifests', owned: path.join(ROOT, 'dist') });
  return synthesizeInto(outdir, {
    hint: 'synthesize elsewhere with npm run synth -- OUTDIR, or print the manifests with npm run --silent synth -- --stdout',
    label: 'synth',
    args: (fresh) => ['-o', fresh, ...options.extra],
  });
}

module.exports = { parse, synth };

if (require.main === module) {
  main('npm run synth', () => synth(process.argv.slice(2)));
}
