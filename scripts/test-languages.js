#!/usr/bin/env node
// `npm run test:languages [-- [--no-package] [python] [java] [go]]`: the
// constructs from Python, Java and Go, each installed from dist-packages/ as a
// user installs it, each synthesizing main.ts's reporter byte for byte as the
// committed dist/ holds it, and the agent of languages/typescript/agent.ts
// byte for byte as TypeScript writes it; a bad prop raises the library's own
// message; reserved words are called in their escaped form.
//   python  a venv of its own (made here, in a temporary folder), pip install
//           of the wheel with cdk8s, cdk8s-plus-28 and constructs pinned to
//           package-lock.json's versions, then pytest (languages/python)
//   java    Maven, JUnit (languages/java), with dist-packages/java as a
//           repository beside Maven Central
//   go      go test (languages/go), whose go.mod replaces the modules with
//           dist-packages/go's
// Checks docs/languages/API.<language>.md fresh (jsii-docgen).
// Runs `npm run package` first unless --no-package. Needs PyPI, Maven Central
// and the Go module proxy; `npm test` needs none of them. Prints what each
// language proved and what it cost ("languages: NAME: ... N s").
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const languages = path.join(root, 'languages');
const LANGUAGES = ['python', 'java', 'go'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (status ${result.status}${result.error ? `, ${result.error.message}` : ''})`);
  }
}

const version = (name) => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf-8')).version;

function python(work, env) {
  const venv = path.join(work, 'venv');
  run('python3', ['-m', 'venv', venv]);
  const wheel = fs.readdirSync(path.join(root, 'dist-packages', 'python')).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new Error('dist-packages/python holds no wheel: run npm run package');
  run(path.join(venv, 'bin', 'pip'), [
    'install', '--quiet', '--disable-pip-version-check', '-r', path.join(languages, 'python', 'requirements.txt'),
    `cdk8s==${version('cdk8s')}`, `cdk8s-plus-28==${version('cdk8s-plus-28')}`, `constructs==${version('constructs')}`,
    path.join(root, 'dist-packages', 'python', wheel),
  ]);
  run(path.join(venv, 'bin', 'python'), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: path.join(languages, 'python'), env });
}

function java(_work, env) {
  const reports = path.join(languages, 'java', 'target', 'surefire-reports');
  fs.rmSync(reports, { recursive: true, force: true });
  run('mvn', ['--batch-mode', '--quiet', '--no-transfer-progress', `-Dnode-reporter.packages=${path.join(root, 'dist-packages', 'java')}`, 'test'], { cwd: path.join(languages, 'java'), env });
  // --quiet hides JUnit's count: print Surefire's.
  for (const f of fs.readdirSync(reports).filter((f) => f.endsWith('.txt'))) {
    console.log(fs.readFileSync(path.join(reports, f), 'utf-8').split('\n').filter((l) => l.startsWith('Tests run')).join('\n'));
  }
}

function go(_work, env) {
  run('go', ['test', '-count=1', './...'], { cwd: path.join(languages, 'go'), env });
}

/** docs/languages/API.<language>.md must be what jsii-docgen writes now (`npm run docs:languages`). */
function docs(work) {
  for (const language of LANGUAGES) {
    const fresh = path.join(work, `API.${language}.md`);
    run(path.join(root, 'node_modules', '.bin', 'jsii-docgen'), ['--language', language, '--output', fresh]);
    const committed = path.join(root, 'docs', 'languages', `API.${language}.md`);
    // jsii-rosetta translates each @example with rosetta/default.ts-fixture: one that does not compile is marked so.
    if (fs.readFileSync(fresh, 'utf-8').includes('non-compiling source')) {
      throw new Error(`an @example in lib/ does not compile for ${language} (jsii-rosetta, rosetta/default.ts-fixture): see the "non-compiling" example in API.${language}.md`);
    }
    if (!fs.existsSync(committed) || fs.readFileSync(committed, 'utf-8') !== fs.readFileSync(fresh, 'utf-8')) {
      throw new Error(`docs/languages/API.${language}.md is not what jsii-docgen writes now: run npm run docs:languages and commit it`);
    }
  }
}

const PROVES = 'dist/ byte for byte, the agent as TypeScript writes it, a bad prop\'s own message, reserved words escaped';

function main(argv) {
  const selected = argv.filter((a) => !a.startsWith('--'));
  for (const name of selected) if (!LANGUAGES.includes(name)) throw new Error(`unknown language ${JSON.stringify(name)} (${LANGUAGES.join(', ')})`);
  const chosen = selected.length > 0 ? selected : LANGUAGES;
  const started = Date.now();
  if (!argv.includes('--no-package')) {
    run('npm', ['run', '--silent', 'package']);
    console.log(`languages: npm run package: ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-languages-'));
  try {
    // What each language must write: the committed dist/, and the TypeScript agent synthesized now.
    run(process.execPath, ['--require', 'tsx/cjs', path.join(languages, 'typescript', 'agent.ts'), path.join(work, 'typescript')]);
    // The README's quick start, synthesized in a folder of its own (its App writes dist/ where it runs).
    const quickStart = path.join(work, 'typescript-quick-start');
    fs.mkdirSync(quickStart);
    run(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(root, 'examples', 'quick-start.ts')], { cwd: quickStart, env: { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json') } });
    const tarball = fs.readdirSync(path.join(root, 'dist-packages', 'js')).find((f) => f.endsWith('.tgz'));
    const env = {
      NODE_REPORTER_DIST: path.join(root, 'dist'),
      NODE_REPORTER_TS_AGENT: path.join(work, 'typescript', 'agent.k8s.yaml'),
      NODE_REPORTER_TS_QUICK_START: path.join(quickStart, 'dist', 'agents.k8s.yaml'),
      NODE_REPORTER_NPM_TARBALL: path.join(root, 'dist-packages', 'js', tarball ?? 'missing.tgz'),
      NODE_REPORTER_CDK8S: path.join(root, 'node_modules', '.bin', 'cdk8s'),
      PYTHONDONTWRITEBYTECODE: '1',
      // The jsii runtime under each language warns on Node 20 otherwise, once per process.
      JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1',
    };
    const steps = { python, java, go };
    const t = Date.now();
    docs(work);
    console.log(`languages: docs/languages/API.{${LANGUAGES.join(',')}}.md are what jsii-docgen writes now: ${Math.round((Date.now() - t) / 1000)} s`);
    for (const name of chosen) {
      const t = Date.now();
      console.log(`== languages: ${name}`);
      steps[name](work, env);
      console.log(`languages: ${name}: ${PROVES}: ${Math.round((Date.now() - t) / 1000)} s`);
    }
    console.log(`languages: all (${chosen.join(', ')}): ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`languages: ${error.message}`);
  process.exit(1);
}
