#!/usr/bin/env bash
# tryout.sh: run every command of README.md as a new user would, on a fresh
# clone, and fail on any non-zero exit or Go panic. CI runs it after
# `go test ./...` (.ci/run).
#
#   docs/examples/tryout.sh            # every README command
#   docs/examples/tryout.sh -n         # list what would run, and what is skipped, then stop
#   docs/examples/tryout.sh -k PATTERN # only the commands matching the extended regex PATTERN
#   TRYOUT_README=FILE.md docs/examples/tryout.sh   # another file's commands (to try the script)
#
# Time: 43 commands run, 8 skipped; about 5 CPU-minutes. On a 2-core machine
# shared with other jobs (2026-11-25): 346 s with a warm cache
# (TRYOUT_CACHE=~/.cache/graphperf), 941 s from a cold one. The slowest: report
# (the default notebook, with the store built the first time), model accuracy
# --simulate (13 graphs simulated), tree study, and the tree commands that
# build their dataset (about a minute each).
#
# How it works:
# - The commands are read from README.md's ```sh blocks each time (so the
#   script follows the README): one command per line, a trailing backslash
#   joins lines, comments are left to bash.
# - `go run ./cmd/graphperf` and a leading `graphperf` become one binary built
#   once (go build -o $T/bin/graphperf ./cmd/graphperf).
# - Each command runs with bash -c in a scratch folder $T/work holding links
#   to the repository's top-level entries (so kernels/..., cmd/... resolve),
#   with ../shared beside it, so outputs (rmat20.gpg, figs/, h100.db, report/)
#   land in the scratch folder, never in the clone. Files the README names as
#   the user's own (mynotes.md, spec.yaml, graph.txt, effs.csv, times.csv,
#   fixed/ba-s12-m16.jsonl.gz) are
#   made there first, small.
# - GRAPHPERF_GRAPHS defaults to ../shared/graphs, GRAPHPERF_CACHE_DIR to a
#   folder under $T (set TRYOUT_CACHE to reuse one between runs).
# - A command fails the run when it exits non-zero or prints "panic:"; every
#   command is run (so one run lists all failures), each with its time.
#
# Skipping:
# - A line `<!-- tryout: skip -->` (or `<!-- tryout: skip REASON -->`)
#   somewhere in the three lines before a ```sh block in README.md skips the
#   whole block: use it for slow examples (a `graphperf predict` of minutes).
# - The SKIP list below skips single commands by an extended regex on the
#   command line: the GPU-only ones (they need nvcc or a GPU) and `go test`
#   (CI runs it already). Add a pattern with its reason to skip another one.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
readme=${TRYOUT_README:-$repo/README.md} # another Markdown file, to try the script itself
name=$(basename "$readme")

# SKIP: "PATTERN :: REASON". Patterns are matched with grep -E against the
# command after the graphperf replacement.
SKIP=(
  '^go test  :: CI runs the tests itself'
  '^graphperf bench (build|run|sweep|ncu)( |$) :: needs a GPU and nvcc'
  '^graphperf bench switch --corpus :: needs a GPU and nvcc'
  '^kernels/measure-[a-z0-9-]+\.sh :: needs a GPU and nvcc'
)

list_only=false
only=""
while getopts "nk:" opt; do
  case $opt in
    n) list_only=true ;;
    k) only=$OPTARG ;;
    *) echo "usage: $0 [-n] [-k PATTERN]" >&2; exit 2 ;;
  esac
done

# commands prints the README's sh commands, one per line (continuations
# joined), each prefixed by its README line, or "SKIPBLOCK<tab>reason" lines
# for commands in a block marked <!-- tryout: skip -->.
commands() {
  awk '
    /<!-- *tryout: *skip/ { mark = NR; reason = $0; sub(/.*tryout: *skip */, "", reason); sub(/ *-->.*/, "", reason) }
    /^```sh[ \t]*$/ { inblock = 1; skipblock = (mark && NR - mark <= 3); next }
    /^```/ { inblock = 0; next }
    inblock {
      line = $0
      if (cmd == "") start = NR
      if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line " "; next }
      cmd = cmd line
      if (cmd ~ /^[ \t]*(#.*)?$/) { cmd = ""; next }
      if (skipblock) printf "%d\tSKIPBLOCK\t%s\t%s\n", start, (reason == "" ? "marked in README.md" : reason), cmd
      else printf "%d\tRUN\t-\t%s\n", start, cmd
      cmd = ""
    }
  ' "$readme"
}

skip_reason() { # command -> prints the reason when SKIP matches
  local c=$1 entry
  # bench microbench measures a GPU, unless --from replays a file.
  if grep -Eq -- '^graphperf bench microbench( |$)' <<<"$c" && ! grep -q -- '--from' <<<"$c"; then
    echo "needs a GPU (with --from it replays a file and runs)"
    return 0
  fi
  for entry in "${SKIP[@]}"; do
    if grep -Eq -- "${entry%% :: *}" <<<"$c"; then
      echo "${entry#* :: }"
      return 0
    fi
  done
  return 1
}

T=$(mktemp -d "${TMPDIR:-/tmp}/graphperf-tryout.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin" "$T/work"

started=$(date +%s)
if ! $list_only; then
  echo "== build"
  (cd "$repo" && go build -o "$T/bin/graphperf" ./cmd/graphperf) || { echo "FAIL: go build"; exit 1; }
  for entry in "$repo"/*; do ln -s "$entry" "$T/work/$(basename "$entry")"; done
  [ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$T/shared"
  rm -f "$T/work/README.md" # commands never need it, and "report" must not see a stray notebook
  # The user's own files that README commands name.
  cat >"$T/work/mynotes.md" <<'EOF'
# My notes

```graphperf
model machine list
```
EOF
  cp "$repo/cmd/graphperf/testdata/model-lazowska.yaml" "$T/work/spec.yaml"
  cp "$repo/cmd/graphperf/testdata/fig2.txt" "$T/work/graph.txt"
  printf 'application,platform,efficiency\nbfs,h100,0.8\nbfs,k40c,0.5\npagerank,h100,0.6\npagerank,k40c,0.4\n' >"$T/work/effs.csv"
  printf 'GraphName,src,impl,lvl,ms\nrmat-s22-e16,2429519,gunrock-bfs,0,0.012\nrmat-s22-e16,2429519,gunrock-bfs,1,0.034\n' >"$T/work/times.csv"
  # fixed/ba-s12-m16.jsonl.gz: a "corrected" runner file for the --replace
  # example, the measured one with its first level median changed.
  mkdir -p "$T/work/fixed"
  gzip -dc "$repo/kernels/measured/h100/ba-s12-m16.jsonl.gz" |
    sed '0,/"median_ns":9728.0/s//"median_ns":9730.0/' | gzip >"$T/work/fixed/ba-s12-m16.jsonl.gz"
  export GRAPHPERF_GRAPHS=${GRAPHPERF_GRAPHS:-../shared/graphs}
  export GRAPHPERF_CACHE_DIR=${TRYOUT_CACHE:-$T/cache}
fi

ran=0 skipped=0 failed=0
failures=()
while IFS=$'\t' read -r line kind reason cmd; do
  cmd=$(sed -E -e 's#go run \./cmd/graphperf( |$)#graphperf\1#g' -e 's/^[[:space:]]+//' -e 's/[[:space:]]+$//' <<<"$cmd")
  if [ -n "$only" ] && ! grep -Eq -- "$only" <<<"$cmd"; then continue; fi
  if [ "$kind" = SKIPBLOCK ] || reason=$(skip_reason "$cmd"); then
    echo "-- skip $name:$line ($reason): $cmd"
    skipped=$((skipped + 1))
    continue
  fi
  if $list_only; then echo "-- run  $name:$line: $cmd"; continue; fi
  echo "== $name:$line: $cmd"
  t0=$(date +%s.%N)
  out=$(cd "$T/work" && PATH="$T/bin:$PATH" bash -c "$cmd" 2>&1 </dev/null)
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  ran=$((ran + 1))
  if [ $rc -ne 0 ] || grep -q 'panic:' <<<"$out"; then
    failed=$((failed + 1))
    failures+=("$name:$line (exit $rc): $cmd")
    echo "$out" | tail -n 40
    echo "FAIL: exit $rc in ${secs}s"
  else
    echo "$out" | tail -n 3
    echo "ok (${secs}s)"
  fi
done < <(commands)

if $list_only; then exit 0; fi
echo
echo "tryout: $ran commands run, $skipped skipped, $failed failed in $(($(date +%s) - started)) s"
if [ $failed -ne 0 ]; then
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
