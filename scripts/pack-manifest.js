// The package.json a user installs has no lifecycle script: `prepare` links
// the repository's own bin (scripts/link-bin.js, which the package does not
// ship), and npm warns of any install script it would run. `prepack` strips
// them from package.json, once the build is done; `postpack` puts the file
// back byte for byte (npm read the scripts it runs before packing). As pinst
// does for husky. Usage: node scripts/pack-manifest.js strip|restore
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const manifest = path.join(root, 'package.json');
const saved = path.join(root, 'node_modules', '.cache', 'node-reporter-package.json');
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'preprepare', 'postprepare', 'prepack', 'postpack'];

const [command] = process.argv.slice(2);
if (command === 'strip') {
  const text = fs.readFileSync(manifest, 'utf-8');
  fs.mkdirSync(path.dirname(saved), { recursive: true });
  fs.writeFileSync(saved, text);
  const pkg = JSON.parse(text);
  for (const script of LIFECYCLE) delete pkg.scripts[script];
  fs.writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (command === 'restore') {
  if (fs.existsSync(saved)) {
    fs.copyFileSync(saved, manifest);
    fs.rmSync(saved);
  }
} else {
  console.error('usage: node scripts/pack-manifest.js strip|restore');
  process.exit(2);
}
