// A stand-in for irilink's entry in test/fuzz-cost.test.ts: linkify(), linkifyMarkdown() and the Linkifier classes
// (and the plugins) take time as FAKE_COST says (in the fuzzer's worker thread, which inherits the environment): `linear` (1 ms per
// 1,024 units), `quadratic` ((units / 1,024)² × 10 ms), `hang` (never returns), `throw`.
const mode = process.env.FAKE_COST;

function busy(ms) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function linkify(text) {
  const k = text.length / 1024;
  if (mode === 'linear') busy(k);
  else if (mode === 'quadratic') busy(k * k * 10);
  else if (mode === 'hang') for (;;);
  else throw new Error(`FAKE_COST is ${mode}`);
  return [];
}

export { linkify, linkify as linkifyMarkdown };

/** The incremental API, as the `-writes` modes use it: the cost of all the writes is taken at end(). */
class Linkifier {
  text = '';
  push(text) {
    this.text += text;
    return [];
  }
  end() {
    return linkify(this.text);
  }
}

export { Linkifier, Linkifier as MarkdownLinkifier };

/** The plugin modes' stand-ins: a markdown-it plugin and a unified plugin that take the same time for the source. */
function irilinkMarkdownIt(md) {
  md.core.ruler.push('fake_cost', (state) => {
    linkify(state.src);
  });
}

function remarkIrilink() {
  return (_tree, file) => {
    linkify(String(file.value));
  };
}

export { irilinkMarkdownIt, remarkIrilink };
