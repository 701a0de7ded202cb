#!/usr/bin/env node
// `npm run package`: the library for every language, in jsii-pacmak's layout
// under dist-packages/ (not committed):
//   js/      the npm tarball
//   python/  the wheel and sdist: distribution node-reporter, module node_reporter
//   java/    a Maven repository: io.github.node-reporter:node-reporter, and the
//            cdk8s, cdk8s-plus-28 and constructs jars built from node_modules
//   go/      the module github.com/node-reporter/node-reporter-go/nodereporter,
//            and the cdk8s, cdk8s-plus and constructs modules built from node_modules
// Java and Go are built with their peers: the Maven Central and Go module proxy
// this project's machines reach serve neither org.cdk8s:cdk8s-plus-28 nor
// github.com/cdk8s-team/cdk8s-core-go, so their bindings are generated from the
// very npm packages of package-lock.json, as jsii-pacmak does for a monorepo.
// Python installs cdk8s, cdk8s-plus-28 and constructs from PyPI.
// Prints what each step cost ("package: STEP: N s").
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const outdir = path.join(root, 'dist-packages');
const env = { ...process.env, JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1' };

function step(name, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`package: ${name} failed (${command} ${args.join(' ')}: status ${result.status})`);
    process.exit(1);
  }
  console.log(`package: ${name}: ${Math.round((Date.now() - started) / 1000)} s`);
}

const started = Date.now();
fs.rmSync(outdir, { recursive: true, force: true });
const pacmak = path.join(root, 'node_modules', '.bin', 'jsii-pacmak');
step('jsii (npm run build)', 'npm', ['run', '--silent', 'build']);
step('js and python', pacmak, ['--targets', 'js', 'python', '--outdir', outdir]);
// The peers, by folder: --recurse would also build the devDependencies (cdk8s-plus-33).
const peers = ['constructs', 'cdk8s', 'cdk8s-plus-28'].map((name) => path.join('node_modules', name));
step('java (with constructs, cdk8s, cdk8s-plus-28)', pacmak, ['--targets', 'java', '--outdir', outdir, '.', ...peers]);
step('go (with constructs, cdk8s, cdk8s-plus-28)', pacmak, ['--targets', 'go', '--outdir', outdir, '.', ...peers]);
console.log(`package: all: ${Math.round((Date.now() - started) / 1000)} s (${path.relative(root, outdir)}/: ${fs.readdirSync(outdir).sort().join(', ')})`);
