// Regenerates imports/k8s.ts with the real `cdk8s import` code generator, offline.
//
// `cdk8s import k8s@X` downloads the Kubernetes OpenAPI definitions from the
// cdk8s repository on GitHub, which these machines cannot reach. This preload
// swaps the CLI's download helper for a read of the same file from the
// repository's checked copy (schemas/, see schemas/PROVENANCE.md), so the
// generated bindings are exactly what `cdk8s import k8s@1.28.0` writes online.
//
// Usage (from the project root): npm run import, i.e.
//   node -r ./scripts/import-k8s.js node_modules/cdk8s-cli/bin/cdk8s import k8s@1.28.0 --language typescript --output imports
'use strict';
const path = require('path');
const { definitionsFile, readDefinitions } = require('./k8s-definitions');
// The package's exports map hides lib/, so resolve the file itself.
const util = require(path.join(path.dirname(require.resolve('cdk8s-cli/package.json')), 'lib', 'util.js'));

const download = util.download;
util.download = async (url) => {
  const match = /\/kubernetes-schemas\/(v\d+\.\d+\.\d+)\/_definitions\.json$/.exec(url);
  if (!match) return download(url);
  console.error(`reading ${path.relative(process.cwd(), definitionsFile(match[1]))} instead of ${url}`);
  return readDefinitions(match[1]);
};
