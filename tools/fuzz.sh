#!/usr/bin/env bash
#! Fuzzes each target of testsuite/fuzz for SECONDS (default 600) with cargo-fuzz (libFuzzer,
#! nightly toolchain), minimises the corpus, and writes testsuite/fuzz/REPORT.md: executions,
#! coverage, corpus size and crashes per target. Crashing inputs stay in
#! testsuite/fuzz/artifacts/<target>/; once fixed, copy them into corpus/<target>/ as
#! crash-<name> so that the stable replay (testsuite/tests/fuzz_corpus.rs) keeps them fixed.
#!
#! Usage: tools/fuzz.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/../testsuite/fuzz"
SECONDS_PER_TARGET=${1:-600}
shift || true
TARGETS=${*:-front_end rk_parser fatbin_reader}
command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked (and rustup toolchain install nightly)"; exit 1; }
report=REPORT.md
{
  echo "# Fuzzing report"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores; \`tools/fuzz.sh $SECONDS_PER_TARGET\`"
  echo
  echo "| target | seconds | executions | coverage (edges) | features | corpus after cmin | crashes |"
  echo "|---|---|---|---|---|---|---|"
} > "$report.tmp"
for t in $TARGETS; do
  log=$(mktemp)
  cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=4096 -timeout=10 >"$log" 2>&1
  status=$?
  stats=$(grep -E '^#[0-9]+' "$log" | tail -1)
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+')
  cov=$(echo "$stats" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+')
  ft=$(echo "$stats" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+')
  cargo +nightly fuzz cmin "$t" "corpus/$t" >/dev/null 2>&1
  corpus=$(ls "corpus/$t" | wc -l)
  crashes=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes="run failed (exit $status)"
  echo "| $t | $SECONDS_PER_TARGET | ${runs:-?} | ${cov:-?} | ${ft:-?} | $corpus | $crashes |" >> "$report.tmp"
  tail -5 "$log"
  rm -f "$log"
done
mv "$report.tmp" "$report"
cat "$report"
