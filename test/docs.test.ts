/**
 * Documentation that cannot rot: the API reference must equal a fresh
 * TypeDoc run, and every README example must be the compiled example file.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guide, guideFiles, readmeCommands, userDocs } from './readme';
import { sandbox } from './sandbox';

const root = path.join(__dirname, '..');

function filesUnder(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      result[path.relative(dir, file)] = fs.readFileSync(file, 'utf-8');
    }
  }
  return result;
}

describe('API reference (docs/api)', () => {
  test('equals what TypeDoc generates from the TSDoc now (run `npm run docs` after an API change)', () => {
    // GIVEN a fresh run into a scratch folder
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-'));
    const result = spawnSync(path.join(root, 'node_modules', '.bin', 'typedoc'), ['--out', out], { cwd: root, encoding: 'utf-8' });

    // THEN it succeeds without warnings (every export documented) and matches
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/warning|error/i);
    expect(result.status).toBe(0);
    const fresh = filesUnder(out);
    fs.rmSync(out, { recursive: true, force: true });
    expect(filesUnder(path.join(root, 'docs', 'api'))).toEqual(fresh);
    expect(Object.keys(fresh).sort()).toEqual(['README.md', 'node-reporter.md', 'node-reporter/checks.md', 'node-reporter/diff.md', 'node-reporter/eligibility.md']);
  }, 60_000);

  test('documents every construct, prop and default of the public API', () => {
    const api = fs.readFileSync(path.join(root, 'docs', 'api', 'node-reporter.md'), 'utf-8');
    for (const name of ['LabeledNodePolicy', 'NodeReporterDaemonSet', 'NodeReporterChart', 'RestrictedNamespace', 'NodeToleration', 'labelCommand', 'intervalSeconds']) {
      expect(api).toContain(name);
    }
    expect(api).toMatch(/intervalSeconds.*`15`/);
  });
});

describe('README and guide examples', () => {
  const readme = userDocs();
  const examples = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];

  test('the README shows examples', () => {
    expect(examples.map((m) => m[1])).toEqual(expect.arrayContaining(['examples/consumer-app.ts', 'examples/check-my-chart.ts']));
  });

  test.each(examples.map((m) => [m[1], m[2]]))('%s is shown exactly as it is compiled (tsc checks examples/)', (file, shown) => {
    expect(shown).toBe(fs.readFileSync(path.join(root, file), 'utf-8'));
  });
});

describe('the rule table (docs/rules.md)', () => {
  test('equals what `npm run rules` generates from the rules in code (run it after changing a rule)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate, out } = require('../scripts/generate-rules.js') as { generate(): string; out: string };
    expect(fs.readFileSync(out, 'utf-8')).toBe(generate());
  });

  test('lists every rule of the checks with its severity, source, fix and waiver', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ALL_RULES, WAIVER_PREFIX } = require('../lib/checks') as typeof import('../lib/checks');
    const table = fs.readFileSync(path.join(root, 'docs', 'rules.md'), 'utf-8');
    const rows = table.split('\n').filter((l) => /^\| `/.test(l));
    expect(rows).toHaveLength(ALL_RULES.length);
    for (const rule of ALL_RULES) {
      const waiver = rule.waivable ? `\`${WAIVER_PREFIX}${rule.id}\`` : '(cannot be waived: the API server or kubectl refuses it)';
      expect(rows).toContain(`| \`${rule.id}\` | ${rule.severity} | ${rule.citation.replace(/\|/g, '\\|')} | ${rule.fix.replace(/\|/g, '\\|')} | ${waiver} |`);
    }
  });

  test('is linked from the README, which no longer carries the table', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
    expect(readme).toContain('(docs/rules.md)');
    expect(readme).not.toMatch(/^\| `pss-privileged` \|/m);
  });
});

describe('README and guide commands: each is run by a test or by CI', () => {
  const readme = userDocs();
  const blocks = readmeCommands(readme);

  test('every shell block says where it runs: package (test/package.test.ts), repo (here), ci (.ci/run), e2e (the walkthrough in CI), agents (the agents e2e in CI) or languages (npm run test:languages, test/languages.test.ts)', () => {
    expect(blocks.filter((b) => !['package', 'repo', 'ci', 'e2e', 'agents', 'languages'].includes(b.where))).toEqual([]);
    expect(new Set(blocks.map((b) => b.where))).toEqual(new Set(['package', 'repo', 'ci', 'e2e', 'agents', 'languages']));
  });

  test("the deploy commands are the agents e2e's, which CI runs on a real node (e2e/agents.ts and its steps' files)", () => {
    const e2e = path.join(root, 'e2e');
    const agents = fs.readdirSync(e2e).filter((f) => /^agents(-[a-z-]+)?\.ts$/.test(f)).map((f) => fs.readFileSync(path.join(e2e, f), 'utf-8')).join('\n');
    const commands = blocks.filter((b) => b.where === 'agents').flatMap((b) => b.commands);
    expect(commands.length).toBeGreaterThan(2);
    for (const command of commands) {
      const words = command.split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
      expect([command, words[0]]).toEqual([command, 'kubectl']);
      expect(agents).toContain(`'${words[1]}'`);
      for (const flag of words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0])) {
        expect([command, agents.includes(`'${flag}`) || agents.includes(`${flag}=`)]).toEqual([command, true]);
      }
    }
    expect(agents).toContain("KUBECTL_APPLYSET: 'true'");
  });

  test('the set-up commands are what .ci/run runs in a lone clone', () => {
    const ci = fs.readFileSync(path.join(root, '.ci', 'run'), 'utf-8');
    const lone = ci.split('\n').find((l) => l.includes('cd "$lone/node-reporter"')) ?? '';
    for (const command of blocks.filter((b) => b.where === 'ci').flatMap((b) => b.commands)) {
      for (const part of command.split('&&').map((c) => c.trim())) {
        expect(lone).toContain(part);
      }
    }
  });

  test('the cluster commands are the walkthrough\'s, which CI runs on a real node (e2e/walkthrough.ts)', () => {
    const walkthrough = fs.readFileSync(path.join(root, 'e2e', 'walkthrough.ts'), 'utf-8');
    const commands = blocks.filter((b) => b.where === 'e2e').flatMap((b) => b.commands);
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const [tool, verb, second] = command.split(/\s+/);
      expect([command, tool]).toEqual([command, 'kubectl']);
      expect(walkthrough).toContain(verb === 'rollout' ? `'rollout', '${second}'` : `'${verb}'`);
    }
  });

  test('the repository recipes run as written, offline, and leave dist/ alone', () => {
    // GIVEN a copy of the project with its fixtures
    const project = sandbox();
    fs.cpSync(path.join(root, 'test', 'fixtures'), path.join(project, 'test', 'fixtures'), { recursive: true });
    const dist = fs.readdirSync(path.join(project, 'dist')).map((f) => fs.readFileSync(path.join(project, 'dist', f), 'utf-8'));
    try {
      for (const command of blocks.filter((b) => b.where === 'repo').flatMap((b) => b.commands)) {
        // WHEN
        const result = spawnSync('sh', ['-c', command], { cwd: project, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', NODE_REPORTER_VARIANTS: '' } });

        // THEN
        expect([command, result.status, result.status === 0 ? '' : result.stderr]).toEqual([command, 0, '']);
      }
      expect(fs.readdirSync(path.join(project, 'manifests')).sort()).toEqual(['node-reporter-v1.k8s.yaml', 'node-reporter-v2.k8s.yaml']);
      expect(fs.readFileSync(path.join(project, 'all.yaml'), 'utf-8')).toBe(dist.join('---\n'));
      expect(fs.readdirSync(path.join(project, 'helm-chart')).sort()).toEqual(['Chart.yaml', 'README.md', 'templates']);
      expect(fs.readdirSync(path.join(project, 'dist')).map((f) => fs.readFileSync(path.join(project, 'dist', f), 'utf-8'))).toEqual(dist);
    } finally {
      fs.rmSync(path.dirname(project), { recursive: true, force: true });
    }
  }, 60_000);
});

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences). */
function anchorsIn(text: string): Set<string> {
  let fenced = false;
  const anchors = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]));
  }
  return anchors;
}

describe('the README is a page, the guides hold the rest', () => {
  test('README.md is at most 400 lines and links to every guide', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(400);
    for (const file of guideFiles().map((f) => path.basename(f)).filter((f) => !['README.md', 'rule-homes.md', 'rules.md', 'compatibility.md', 'waves.md'].includes(f))) {
      expect([file, readme.includes(`(docs/${file}`)]).toEqual([file, true]);
    }
  });

  test.each([path.join(root, 'README.md'), ...guideFiles()].map((f) => [path.relative(root, f)]))('every relative link of %s resolves, anchors too', (file) => {
    // GIVEN the file's Markdown links outside code fences, but not to the web
    const text = fs.readFileSync(path.join(root, file), 'utf-8').replace(/```[\s\S]*?```/g, '');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    // THEN each names a file of the repository, and a heading of it when it has an anchor
    const broken = links.filter((link) => {
      const [target, anchor] = link.split('#');
      const resolved = target === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), target);
      if (!fs.existsSync(resolved)) return true;
      return anchor !== undefined && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(resolved, 'utf-8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  test('every guide links back to the README', () => {
    for (const file of guideFiles().filter((f) => !/(rules|rule-homes|compatibility)\.md$/.test(f))) {
      expect([path.basename(file), guide(path.basename(file)).includes('(../README.md')]).toEqual([path.basename(file), true]);
    }
  });
});

describe('the validation plugin in the docs', () => {
  test("every cdk8s.yaml block names the package's own version for the plugin", () => {
    // GIVEN the package's version and every plugin entry of the README and the guides
    const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).version;
    const named = [...userDocs().matchAll(/validation-plugin\.js\n\s+version: (\S+)/g)].map((m) => m[1]);
    // THEN there are some, and each is the package's
    expect(named.length).toBeGreaterThan(1);
    expect(named.filter((v) => v !== version)).toEqual([]);
  });
});
