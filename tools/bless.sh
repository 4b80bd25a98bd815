#!/usr/bin/env bash
#! Re-blesses every expected output (insta snapshots, trybuild stderr files, the CHECK lines
#! of testsuite/lit) from what the
#! code produces now. Review the result with `git diff` before committing: expected output is
#! never edited by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
find . -name '*.snap.new' -not -path './target/*' -delete
INSTA_UPDATE=always TRYBUILD=overwrite RKC_BLESS=1 cargo test --workspace --locked "$@"
git status --short -- '*.snap' '*.stderr' testsuite/lit
