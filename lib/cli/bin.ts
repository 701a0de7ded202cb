#!/usr/bin/env node
// The package's `node-reporter` bin.
import { main } from './node-reporter';

process.exitCode = main(process.argv.slice(2));
