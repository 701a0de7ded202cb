// Regenerates imports/k8s.ts with the real `cdk8s import` code generator, offline.
//
// `cdk8s import k8s@X` downloads the Kubernetes OpenAPI definitions from GitHub,
// which these machines cannot reach. This preload swaps the CLI's download
// helper for a read of the same file from a local copy, so the generated
// bindings are exactly what `cdk8s import k8s@1.28.0` would write online.
//
// Usage (from the project root):
//   K8S_SCHEMAS=../shared/k8s-schemas node -r ./scripts/import-k8s.js \
//     node_modules/cdk8s-cli/bin/cdk8s import k8s@1.28.0 --language typescript --output imports
'use strict';
const path = require('path');
// The package's exports map hides lib/, so resolve the file itself.
const util = require(path.join(path.dirname(require.resolve('cdk8s-cli/package.json')), 'lib', 'util.js'));

const schemas = path.resolve(process.env.K8S_SCHEMAS ?? path.join(__dirname, '..', '..', 'shared', 'k8s-schemas'));
const download = util.download;
util.download = async (url) => {
  const match = /\/kubernetes-schemas\/(v\d+\.\d+\.\d+)\/_definitions\.json$/.exec(url);
  if (!match) return download(url);
  const file = path.join(schemas, match[1], '_definitions.json');
  console.error(`reading ${file} instead of ${url}`);
  return download(file);
};
