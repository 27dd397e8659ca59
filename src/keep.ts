// Performance: objects that outlive every call, so that V8 keeps irilink's optimised code while a process idles.
//
// V8's optimised code holds the hidden classes ("maps") of the objects it was compiled for only weakly. When a
// process goes idle, V8's memory reducer runs full garbage collections that let go of every map no live object has,
// and throws away the optimised code that depended on one (`--trace-deopt`: "weak objects"). The objects of a stream
// or of a findLinks() call (scan state, links, chunks; a stream's decoder and Node stream state) all die with it, so
// a program that linked a document, idled for some seconds and then linked another ran the next one unoptimised
// again, until V8 had re-learned it: 10 to 100 MB of input. Measured:
// - createLinkStream, multilingual, 40 MB runs, five back to back and then each after a 25 s pause: 74 functions
//   thrown away in the pauses, 101 optimised again, the worst run after a pause 22.5 CPU ms/MB against 7 to 9 back
//   to back. With the kept stream: 28 thrown away (mostly Node's stream internals and the source stream's, a few of
//   irilink's stream layer such as release and decode, none of the scanner's), 38 optimised again, the worst run
//   11.4 CPU ms/MB.
// - findLinks() on each line of 10 MB of multilingual text, four times, then a full garbage collection and a 25 s
//   pause: 30 functions thrown away, the scanner's among them; with what is kept, 4 (findLinks itself among them).
//
// So a little after the first stream has ended, and after the first findLinks()/linkify(), the samples below are
// linked once more that way and what that made is kept for the life of the process: a few kB. The samples take the
// common paths (all-ASCII text and dense UTF-8, a link cut by a write, URLs, a link without a scheme, email
// addresses, IRI paths) with ASCII hosts, so that tr46 stays unloaded until a text has an IDN.
// test/keep-shapes.test.ts checks with V8's natives that what is kept has the maps of what streams and calls make.

/** Sample text, cut where a stream's writes are cut (the second cut falls inside a link). */
export const SHAPE_SAMPLES: readonly string[] = [
  'Read https://example.com/a/b?c=d#e, www.example.org/x and write to someone@example.net.\n',
  'Voir https://fr.wikipedia.org/wiki/Caf\u00e9 \u2014 pr\u00e8s de http://example.org/s',
  'uite (x) et ftp.example.com.\n',
  '\u898b\u3066\uff1a https://ja.wikipedia.org/wiki/\u65e5\u672c\u8a9e \u3068 example.jp/\u30d1\u30b9\u3002' +
    '\u041f\u0440\u0438\u043c\u0435\u0440: example.org/\u043f\u0443\u0442\u044c, \u043f\u043e\u0447\u0442\u0430@example.org.\n',
];

const kept = new Map<() => unknown, unknown>();

/**
 * Calls `make` 100 ms from now, once per process, and keeps what it returns. The timer does not keep a process
 * running (Node's unref), so a program that exits by then (the command line on one file) does not pay for it.
 */
export function keepSoon(make: () => unknown): void {
  if (kept.has(make)) return;
  kept.set(make, null);
  const timer = setTimeout(keepNow, 100, make) as unknown as { unref?: () => void };
  timer.unref?.();
}

function keepNow(make: () => unknown): void {
  try {
    kept.set(make, make());
  } catch {
    // Only speed is at stake, and a timer's exception would end the caller's process: nothing is kept
    // (test/keep-shapes.test.ts fails if the samples stop linking).
  }
}

/** Internal (tests): what `make` returned, or null before it was called. */
export function keptBy(make: () => unknown): unknown {
  return kept.get(make) ?? null;
}
