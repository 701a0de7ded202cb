// The `prepare` script (npm runs it after `npm install` and `npm ci` in this
// repository, never where the package is installed from a tarball or the
// registry): links node_modules/.bin/node-reporter to scripts/node-reporter.js,
// so that `npx node-reporter` works inside the repository as it does in an app
// that installed the package. Usage: node scripts/link-bin.js [PROJECT_ROOT]
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const bin = path.join(root, 'node_modules', '.bin');
if (!fs.existsSync(path.join(root, 'node_modules'))) {
  process.exit(0); // nothing installed: nothing to link into
}
fs.mkdirSync(bin, { recursive: true });
const link = path.join(bin, 'node-reporter');
const target = path.relative(bin, path.join(root, 'scripts', 'node-reporter.js'));
try {
  if (fs.readlinkSync(link) === target) process.exit(0);
  fs.unlinkSync(link);
} catch (e) {
  if (e.code !== 'ENOENT' && e.code !== 'EINVAL') throw e;
  if (e.code === 'EINVAL') fs.unlinkSync(link); // a file, not a link: replace it
}
fs.symlinkSync(target, link);
fs.chmodSync(path.join(root, 'scripts', 'node-reporter.js'), 0o755);
