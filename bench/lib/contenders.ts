// irilink and the peers behind the same `find(text)` interface, for the evaluation and the comparison.
// irilink runs through the package entry's findLinks (dist/index.js).
import { loadIrilink } from './irilink.js';
import { makePeer, packageVersion, peerNames, type FoundLink } from './peers.js';

export interface Contender {
  name: string;
  version: string;
  /** Whether `uri` is meaningful for this contender (url-regex-safe gives none). */
  givesUri: boolean;
  find(text: string): (FoundLink & { kind?: string })[];
}

export async function loadContenders(): Promise<{ contenders: Contender[]; notes: string[] }> {
  const iri = await loadIrilink();
  const contenders: Contender[] = [];
  const notes: string[] = [];
  const findLinks = iri.api.findLinks;
  if (findLinks !== undefined) {
    contenders.push({
      name: 'irilink',
      version: iri.version,
      givesUri: true,
      find: (text) => findLinks(text).map((l) => ({ start: l.start, end: l.end, text: l.text, uri: l.uri, kind: l.kind })),
    });
  } else notes.push(`irilink not evaluated: ${iri.missing.join('; ')}`);
  for (const name of peerNames) {
    const peer = makePeer(name);
    contenders.push({ name, version: packageVersion(peer.pkg), givesUri: name !== 'url-regex-safe', find: (t) => peer.find(t) });
  }
  return { contenders, notes };
}
