#!/usr/bin/env node
// `npm run helm`: this app as a Helm chart of one variant, atomically and
// safely, like `npm run synth` (see output-folder.js). `cdk8s synth --format
// helm` writes Chart.yaml and README.md before it runs the app, so an app that
// fails leaves a half-written chart, and it deletes its -o folder first. This
// writes the chart into a fresh folder and swaps it in only when everything
// (the checks included) succeeded; a refusal is one line and exit 2.
//   NODE_REPORTER_VARIANTS=v2 npm run helm -- OUTDIR --chart-version 1.0.0 [--no-validate ...]
const { UsageError, claimOutputFolder, main, parseArguments, synthesizeInto } = require('./output-folder');

const USAGE = 'usage: NODE_REPORTER_VARIANTS=VARIANT npm run helm -- OUTDIR --chart-version X.Y.Z [--no-validate | --app CMD | ...]';
// SemVer 2 (https://semver.org), which Helm and the cdk8s CLI require.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function parse(argv) {
  const { folder, values, cdk8s } = parseArguments(argv, { valued: ['--chart-version'], usage: USAGE });
  if (folder === undefined) {
    throw new UsageError(`the output folder is missing (${USAGE})`);
  }
  const chartVersion = values['--chart-version'];
  if (chartVersion === undefined) {
    throw new UsageError(`--chart-version is missing (${USAGE})`);
  }
  if (!SEMVER.test(chartVersion)) {
    throw new UsageError(`'--chart-version' must be a SemVer 2 version such as 1.0.0 but got ${JSON.stringify(chartVersion)}`);
  }
  return { outdir: folder, chartVersion, extra: cdk8s };
}

function helm(argv) {
  const options = parse(argv);
  const outdir = claimOutputFolder(options.outdir, { kind: 'helm' });
  return synthesizeInto(outdir, {
    hint: 'write the chart into a writable folder',
    label: 'helm chart',
    args: (fresh) => ['--format', 'helm', '--chart-version', options.chartVersion, '-o', fresh, ...options.extra],
  });
}

module.exports = { parse, helm };

if (require.main === module) {
  main('npm run helm', () => helm(process.argv.slice(2)));
}
