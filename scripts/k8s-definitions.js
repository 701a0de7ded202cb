// The Kubernetes OpenAPI definitions that `cdk8s import k8s@X` downloads,
// kept in the repository (schemas/vX.Y.Z/_definitions.json) so that a clone
// needs nothing beside it. imports/k8s.ts (`npm run import`) and
// lib/checks/schema-1.28.json (`npm run schema`) are generated from them.
// Every read checks the file against schemas/SHA256SUMS, so a changed or
// replaced copy is refused instead of silently generating other bindings.
// Where the copy comes from: schemas/PROVENANCE.md.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const SCHEMAS = path.join(__dirname, '..', 'schemas');

/** The path of `<dir>/<version>/_definitions.json`, e.g. version `v1.28.0`. */
function definitionsFile(version, dir = SCHEMAS) {
  return path.join(dir, version, '_definitions.json');
}

/** `{ 'v1.28.0/_definitions.json': sha256 }` from `<dir>/SHA256SUMS` (sha256sum's format). */
function checksums(dir = SCHEMAS) {
  const sums = {};
  for (const line of fs.readFileSync(path.join(dir, 'SHA256SUMS'), 'utf-8').split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (match) {
      sums[match[2]] = match[1];
    }
  }
  return sums;
}

/**
 * The text of the definitions of `version`, checked against SHA256SUMS.
 * @throws Error naming the file, both sums and what to do, when they differ or the version is unknown
 */
function readDefinitions(version, dir = SCHEMAS) {
  const file = definitionsFile(version, dir);
  const name = `${version}/_definitions.json`;
  const expected = checksums(dir)[name];
  if (expected === undefined) {
    throw new Error(`${path.join(dir, 'SHA256SUMS')} has no sum for ${name}: add the upstream copy and its sum (see schemas/PROVENANCE.md)`);
  }
  const text = fs.readFileSync(file, 'utf-8');
  const actual = crypto.createHash('sha256').update(text).digest('hex');
  if (actual !== expected) {
    throw new Error(`${file} has sha256 ${actual} but SHA256SUMS says ${expected}: the file was changed; restore it with \`git checkout -- schemas/\` (a new upstream copy needs its sum and provenance updated)`);
  }
  return text;
}

module.exports = { SCHEMAS, checksums, definitionsFile, readDefinitions };
