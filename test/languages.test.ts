/**
 * The packages for Python, Java and Go (npm run package) and their docs,
 * as far as a lone clone can check them: the languages' own tests need PyPI,
 * Maven Central and the Go module proxy and run in `npm run test:languages`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readmeCommands } from './readme';

const root = path.join(__dirname, '..');

describe('the jsii packages', () => {
  test('are named as each language\'s users look them up', () => {
    // GIVEN package.json's jsii section
    const { jsii } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));

    // THEN pacmak writes into dist-packages/, under these names
    expect(jsii.outdir).toBe('dist-packages');
    expect(jsii.targets).toEqual({
      python: { distName: 'node-reporter', module: 'node_reporter' },
      java: { package: 'io.github.nodereporter', maven: { groupId: 'io.github.node-reporter', artifactId: 'node-reporter' } },
      go: { moduleName: 'github.com/node-reporter/node-reporter-go', packageName: 'nodereporter' },
    });
  });

  test('bundle yaml, the one dependency that is not a jsii module, and take cdk8s, cdk8s-plus-28 and constructs as peers', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
    expect(pkg.bundledDependencies).toEqual(Object.keys(pkg.dependencies));
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdk8s', 'cdk8s-plus-28', 'constructs']);
  });
});

describe('the README\'s Python quick start', () => {
  test('is the app the Python tests run with cdk8s synth (languages/python/quick_start), block for block', () => {
    // GIVEN the README's blocks marked with the file they show
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
    const blocks = [...readme.matchAll(/<!-- python-example: (\S+) -->\n```\w+\n([\s\S]*?)```/g)];

    // THEN there are main.py and cdk8s.yaml, each exactly the file, and cdk8s.yaml runs the checks
    expect(blocks.map((m) => m[1])).toEqual(['languages/python/quick_start/main.py', 'languages/python/quick_start/cdk8s.yaml']);
    for (const [, file, text] of blocks) {
      expect(text).toBe(fs.readFileSync(path.join(root, file), 'utf-8'));
    }
    expect(blocks[1][2]).toMatch(/validations:\n {2}- package: \.\/node_modules\/node-reporter\/build\/lib\/checks\/validation-plugin\.js\n/);
  });

  test('installs what npm run package writes and test:languages installs: the wheel, and the npm tarball for the checks', () => {
    // GIVEN the README's commands for Python and the version being packaged
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
    const commands = readmeCommands(readme).filter((b) => b.where === 'languages').flatMap((b) => b.commands);
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));

    // THEN they name jsii-pacmak's files of this version (scripts/test-languages.js installs the same two)
    expect(commands).toEqual([
      `pip install ../node-reporter/dist-packages/python/node_reporter-${version}-py3-none-any.whl`,
      `npm install --no-save ../node-reporter/dist-packages/js/node-reporter@${version}.jsii.tgz`,
    ]);
    const script = fs.readFileSync(path.join(root, 'scripts', 'test-languages.js'), 'utf-8');
    expect(script).toContain("path.join(root, 'dist-packages', 'python', wheel)");
    expect(script).toContain("path.join(root, 'dist-packages', 'js', tarball");
  });

  test('docs/languages.md links only to files that exist', () => {
    const doc = fs.readFileSync(path.join(root, 'docs', 'languages.md'), 'utf-8');
    const links = [...doc.matchAll(/\]\(([^)#:]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      expect(fs.existsSync(path.join(root, 'docs', link))).toBe(true);
    }
  });
});
