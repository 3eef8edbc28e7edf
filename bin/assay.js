#!/usr/bin/env node
// Installed launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import '../dist/src/cli/run-cli.js';
