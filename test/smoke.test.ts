import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';
import { IriError } from '../src/index.js';
import { ensureBuilt } from './support/cli.js';
import { repoRoot } from './support/shared.js';

describe('package entry', () => {
  it('exports IriError with a stable code', () => {
    const e = new IriError('lone-surrogate');
    expect(e).to.be.instanceOf(Error);
    expect(e.code).to.equal('lone-surrogate');
    expect(e.message).to.match(/lone surrogate/);
  });

  it('its types type-check in a project without skipLibCheck (they loaded the mail parser\'s, which do not)', function () {
    this.timeout(120_000);
    ensureBuilt('index.d.ts');
    // What `tsc` does for a consumer that imports 'irilink' with TypeScript's default skipLibCheck: false.
    const program = ts.createProgram([path.join(repoRoot, 'dist', 'index.d.ts')], {
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`);
    expect(errors).to.deep.equal([]);
  });
});
