// Loaded by mocha before any test (.mocharc.json "require"): links the primer's samples (src/detect/primer.ts) now,
// so that no test's own scan crosses the primer's threshold and does that work in the middle of what it measures
// (the tests that count reads, for one). test/primer.test.ts checks the primer in a fresh process.
import { primeNow } from '../../src/detect/scanner.js';

primeNow();
