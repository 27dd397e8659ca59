#!/usr/bin/env node
// The irilink command. The code is in src/cli/main.ts, compiled to dist/ by `npm run build` (run by `npm ci`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`irilink: internal error: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 70;
  },
);
