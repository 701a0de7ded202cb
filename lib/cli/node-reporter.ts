/**
 * The `node-reporter` command: which command runs, and how a failure is
 * printed. Each command is a file of its own (check.ts, eligible.ts, diff.ts,
 * version.ts); the flags they share are in args.ts, the reading in io.ts.
 * The rules live in ../eligibility, ../checks and ../diff; this only wires
 * them to a terminal. Every failure is one line on stderr and exit 2, never a
 * stack trace.
 */
import { InputError } from '../checks/input/files';
import { printable } from '../eligibility/printable';
import { nearest, UsageError } from './args';
import { Io, PROCESS_IO } from './io';
import { versionCommand, versionText } from './version';

export { isUserLabel } from '../eligibility/kubectl';
export { Io, PROCESS_IO } from './io';
export { version } from './version';

/** The usage printed by `node-reporter --help`. */
export const USAGE = `Usage: node-reporter COMMAND [OPTIONS]

  check      the manifest checks on any YAML, for CI
  eligible   which nodes a DaemonSet runs on, and why not on the others
  diff       what a manifest change does to a cluster: rollouts, refused updates, RBAC, Pod Security, nodes
  version    print the version (also --version, -v)

Every command takes -o/--format, --fail-on-warnings (--strict), -v/--version and -h/--help.
Run node-reporter COMMAND --help for a command's options.`;

/* eslint-disable @typescript-eslint/no-require-imports */
// Each command is loaded when it runs: `eligible` on kubectl's JSON needs neither the checks nor the diff, and loading them was a quarter of its time.
const COMMANDS: Record<string, (args: string[], io: Io) => number> = {
  check: (args, io) => (require('./check') as typeof import('./check')).check(args, io),
  eligible: (args, io) => (require('./eligible') as typeof import('./eligible')).eligible(args, io),
  diff: (args, io) => (require('./diff') as typeof import('./diff')).diff(args, io),
  version: versionCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Runs the command with these arguments (without `node` and the script).
 * @returns the exit code: 0 done (check: clean; diff: no change), 1 check: blocking findings, diff: changes,
 *   2 bad usage or input, 3 diff: an impact named by --fail-on
 */
export function main(argv: string[], io: Io = PROCESS_IO): number {
  const [command, ...rest] = argv;
  try {
    if (command === '--help' || command === '-h') {
      io.out(`${USAGE}\n`);
      return 0;
    }
    if (command === '--version' || command === '-v' || command === '-V') {
      io.out(versionText());
      return 0;
    }
    if (command === undefined) {
      throw new UsageError(`a command is required: ${Object.keys(COMMANDS).join(', ')}`);
    }
    const run = Object.prototype.hasOwnProperty.call(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) {
      const meant = nearest(command, Object.keys(COMMANDS));
      throw new UsageError(`unknown command ${printable(command, true)}${meant ? `; did you mean "${meant}"?` : `: the commands are ${Object.keys(COMMANDS).join(', ')}`}`);
    }
    return run(rest, io);
  } catch (e) {
    if (e instanceof InputError) {
      io.err(`node-reporter: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`node-reporter${e.command ? ` ${e.command}` : ''}: ${printable(e.message)} (see node-reporter ${e.command ? `${e.command} ` : ''}--help)\n`);
      return 2;
    }
    throw e;
  }
}
