// What `npm run synth` and `npm run helm` share: which output folders they may
// replace, how they run the cdk8s CLI, and how they swap a fresh result in.
//
// The cdk8s CLI deletes its output folder (`rm -rf`) before it runs the app,
// whatever that folder is: `cdk8s synth -o .` deletes the project. So the
// scripts never hand it a folder of the user's; they synthesize into a fresh
// folder and replace the output folder only if it is one they may own: not
// the project (or the working folder) nor any folder holding it, not a file or
// a symlink, and holding only what they write, unless it is the project's
// dist/. Anything else is refused with one line, exit 2, before anything is
// touched.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const CDK8S = path.join(ROOT, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');

/** A refusal: one line on stderr, exit 2. */
class UsageError extends Error {}

/** What a folder may hold for a script to replace it: cdk8s manifests, or a chart of them. */
const OWNED = {
  manifests: {
    what: 'synthesized manifests (*.k8s.yaml)',
    allows: (relative, entry) => entry.isFile() && !relative.includes(path.sep) && relative.endsWith('.k8s.yaml'),
  },
  helm: {
    what: 'a chart that npm run helm wrote (Chart.yaml, README.md, templates/*.k8s.yaml)',
    allows: (relative, entry) => (entry.isFile() && ['Chart.yaml', 'README.md'].includes(relative))
      || (entry.isDirectory() && relative === 'templates')
      || (entry.isFile() && path.dirname(relative) === 'templates' && relative.endsWith('.k8s.yaml')),
  },
};

/** The real path of a path that may not exist yet: its nearest existing ancestor's, resolved. */
function realPath(p) {
  const rest = [];
  let current = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...rest.reverse());
    } catch (error) {
      if (!['ENOENT', 'ENOTDIR'].includes(error.code) || path.dirname(current) === current) {
        throw error;
      }
      rest.push(path.basename(current));
      current = path.dirname(current);
    }
  }
}

function within(inner, outer) {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The output folder, resolved, if the script may own it.
 * @param {string} given the folder as the user wrote it
 * @param {{ kind: 'manifests' | 'helm', root?: string, cwd?: string, owned?: string }} options
 *   `owned`: a folder that is the script's whatever it holds (the project's dist/)
 * @throws UsageError saying why not
 */
function claimOutputFolder(given, { kind, root = ROOT, cwd = process.cwd(), owned }) {
  if (typeof given !== 'string' || given.trim() === '') {
    throw new UsageError(`the output folder must be a path but got ${JSON.stringify(given)}`);
  }
  const outdir = path.resolve(cwd, given);
  const shown = JSON.stringify(given);
  const real = realPath(outdir);
  for (const [what, folder] of [['the project', root], ['the working folder', cwd]]) {
    if (within(realPath(folder), real)) {
      throw new UsageError(`the output folder must not be ${what} or a folder holding it (it is replaced), but got ${shown}`);
    }
  }
  const parent = path.dirname(outdir);
  if (!fs.existsSync(parent) || !fs.statSync(parent).isDirectory()) {
    throw new UsageError(`the output folder's parent must be an existing folder, but ${JSON.stringify(path.dirname(given))} is not`);
  }
  let stat;
  try {
    stat = fs.lstatSync(outdir);
  } catch (error) {
    if (error.code === 'ENOENT') {
      return outdir;
    }
    throw error;
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new UsageError(`the output folder must be a folder or not exist yet, but ${shown} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'a file'}`);
  }
  if (owned !== undefined && realPath(owned) === real) {
    return outdir;
  }
  const rule = OWNED[kind];
  for (const entry of fs.readdirSync(outdir, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(outdir, path.join(entry.parentPath, entry.name));
    if (!rule.allows(relative, entry)) {
      throw new UsageError(`the output folder must be new, empty or hold only ${rule.what}, but ${shown} holds ${JSON.stringify(relative)}`);
    }
  }
  return outdir;
}

/**
 * A fresh working folder beside the output folder, so that the swap is a
 * rename on one filesystem.
 * @throws UsageError when that folder cannot be written (a read-only project)
 */
function workFolderBeside(outdir, hint) {
  try {
    return fs.mkdtempSync(path.join(path.dirname(outdir), '.synth-'));
  } catch (error) {
    throw new UsageError(`cannot write in ${path.dirname(outdir)} (${error.code ?? error.message}): ${hint}`);
  }
}

/** A folder as messages show it: relative when under the working folder, else absolute, with a trailing /. */
function shown(folder) {
  const relative = path.relative(process.cwd(), folder);
  return `${relative === '' ? '.' : relative.startsWith('..') ? folder : relative}/`;
}

/** Replaces the output folder with the fresh one; the previous one goes into the working folder. */
function swapIn(fresh, outdir, work) {
  if (fs.existsSync(outdir)) {
    fs.renameSync(outdir, path.join(work, 'previous'));
  }
  fs.renameSync(fresh, outdir);
}

/**
 * Runs the cdk8s CLI into a fresh folder beside `outdir` (`args(fresh)`) and
 * swaps it in only when it succeeds; `outdir` is untouched otherwise. The
 * exit code: 0, 2 for a refusal the app already reported, else the CLI's.
 * @param hint what to do when the folder beside `outdir` cannot be written
 * @param label what failed, in the one-line failure message
 */
function synthesizeInto(outdir, { hint, label, args }) {
  const work = workFolderBeside(outdir, hint);
  try {
    const fresh = path.join(work, 'out');
    const { status, refused } = runCdk8s(args(fresh));
    if (status !== 0) {
      if (!refused) {
        console.error(`${label} failed (exit ${status}): ${shown(outdir)} is left as it was`);
      }
      return refused ? 2 : status;
    }
    swapIn(fresh, outdir, work);
    console.log(`wrote ${shown(outdir)}`);
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// The CLI restates an app's failure as its own error with a stack trace
// ("Error: command ... returned a non-zero exit code N" and "    at ..."
// lines): the app has already said why, so those lines are dropped.
function withoutCliTrace(stderr) {
  const lines = stderr.split('\n');
  const start = lines.findIndex((l) => /^Error: command ".*" at .* returned a non-zero exit code \d+$/.test(l));
  if (start < 0) {
    return stderr;
  }
  let end = start + 1;
  while (end < lines.length && /^\s+at /.test(lines[end])) {
    end++;
  }
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n');
}

/**
 * Runs `cdk8s synth` with these arguments; its stdout goes to `stdout` (a file
 * descriptor), its stderr to ours once it ends, without the CLI's restatement.
 * @returns the exit status, and whether the app refused with a one-line
 *   reason (main.ts does so for a bad setting), which then says it all
 */
function runCdk8s(args, { stdout = 1, env = {} } = {}) {
  const result = spawnSync(process.execPath, [CDK8S, 'synth', '--no-check-upgrade', ...args], {
    stdio: ['inherit', stdout, 'pipe'],
    encoding: 'utf-8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', ...env },
  });
  if (result.error) {
    throw result.error;
  }
  const stderr = result.status === 0 ? result.stderr : withoutCliTrace(result.stderr);
  process.stderr.write(stderr);
  const refused = result.status !== 0 && stderr !== result.stderr && stderr.trim() !== '' && !stderr.trim().includes('\n');
  return { status: result.status ?? 1, refused };
}

// The cdk8s options a script passes on (0: a flag, 1: takes a value); the
// output options are the script's own (an `-o` would have the CLI delete that
// folder).
const PASSED_ON = new Map([['--no-validate', 0], ['--validate', 0], ['--app', 1], ['-a', 1], ['--validation-reports-output-file', 1], ['--plugins-dir', 1]]);

/**
 * A script's arguments: its own (`flags`, which take no value, and at most one
 * positional `folder`) and the cdk8s options it passes on, anywhere (a `--`
 * between them is optional).
 * @throws UsageError for anything else
 */
function parseArguments(argv, { flags = [], valued = [], usage }) {
  const result = { folder: undefined, flags: new Set(), values: {}, cdk8s: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name] = arg.split('=', 1);
    const takesValue = PASSED_ON.get(name) === 1 || valued.includes(name);
    let value;
    if (takesValue) {
      value = arg.includes('=') ? arg.slice(name.length + 1) : argv[++i];
      if (value === undefined) {
        throw new UsageError(`${name} needs a value (${usage})`);
      }
    }
    if (arg === '--') {
      continue;
    } else if (flags.includes(arg)) {
      result.flags.add(arg);
    } else if (valued.includes(name)) {
      result.values[name] = value;
    } else if (PASSED_ON.has(name)) {
      result.cdk8s.push(...(takesValue ? [name, value] : [arg]));
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${JSON.stringify(arg)}: the cdk8s options passed on are ${[...PASSED_ON.keys()].join(', ')} (${usage})`);
    } else if (result.folder === undefined) {
      result.folder = arg;
    } else {
      throw new UsageError(`one output folder, but got ${JSON.stringify(result.folder)} and ${JSON.stringify(arg)} (${usage})`);
    }
  }
  return result;
}

/** Runs a script's main: a UsageError is one line on stderr and exit 2; anything else is a bug and shows its stack. */
function main(name, run) {
  try {
    process.exitCode = run();
  } catch (error) {
    if (!(error instanceof UsageError)) {
      throw error;
    }
    console.error(`${name}: ${error.message}`);
    process.exitCode = 2;
  }
}

module.exports = { ROOT, UsageError, claimOutputFolder, main, parseArguments, runCdk8s, shown, swapIn, synthesizeInto, withoutCliTrace, workFolderBeside };
