#!/usr/bin/env node
// Writes docs/rules.md, the table of every rule of the manifest checks, from
// ALL_RULES (lib/checks/rules.ts): never edit it by hand, run `npm run rules`.
// test/docs.test.ts fails when it differs from the rules in code.
'use strict';
require('tsx/cjs');
const fs = require('node:fs');
const path = require('node:path');
const { ALL_RULES, WAIVER_PREFIX } = require('../lib/checks');

const out = path.join(__dirname, '..', 'docs', 'rules.md');

const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function generate() {
  const rows = ALL_RULES.map((rule) => {
    const waiver = rule.waivable ? `\`${WAIVER_PREFIX}${rule.id}\`` : '(cannot be waived: the API server or kubectl refuses it)';
    return `| \`${rule.id}\` | ${rule.severity} | ${cell(rule.citation)} | ${cell(rule.fix)} | ${waiver} |`;
  });
  return [
    '# Rules of the manifest checks',
    '',
    '<!-- Generated from ALL_RULES (lib/checks/rules.ts) by `npm run rules`; do not edit. -->',
    '',
    `Every rule that \`cdk8s synth\` (with the validation plugin) and \`node-reporter check\` apply: ${ALL_RULES.length} rules.`,
    'Errors fail synth and make `node-reporter check` exit 1; warnings are reported.',
    'An object waives a rule with the annotation in the last column, whose value says why (see the README, "Manifest checks").',
    '',
    '| rule | severity | source | fix | waiver annotation |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

module.exports = { generate, out };

if (require.main === module) {
  fs.writeFileSync(out, generate());
  console.log(`wrote ${path.relative(process.cwd(), out)} (${ALL_RULES.length} rules)`);
}
