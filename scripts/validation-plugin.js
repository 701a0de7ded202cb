// The entry cdk8s.yaml names under `validations:`. cdk8s loads validation
// plugins with a plain require(), so this registers tsx (the same transpiler
// the app runs with) before loading the TypeScript sources. A consumer of the
// built package points at build/lib/checks/validation-plugin.js instead.
'use strict';
require('tsx/cjs');
module.exports = require('../lib/checks/validation-plugin');
