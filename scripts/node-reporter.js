#!/usr/bin/env node
// `npx node-reporter` inside this repository: the CLI from the sources (through
// tsx, as `npm run node-reporter` runs it), so it is never a stale build.
// `npm install` (npm ci) links it as node_modules/.bin/node-reporter
// (scripts/link-bin.js, the `prepare` script); the package's own bin is
// build/lib/cli/bin.js.
require('tsx/cjs');
require('../lib/cli/bin.ts');
