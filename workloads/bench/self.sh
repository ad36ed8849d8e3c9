#!/usr/bin/env bash
# The harness of workloads/perf-pr.yaml: times the perfab jar this side built (in its own tree) on
# inputs made here, and writes the wall and CPU seconds of each to $PERFAB_RESULT.
#
#   startup           perfab --version: the JVM and the command line
#   compare/10k       perfab compare on 10,000 cells x 20 trials per side of go test -bench text
#   comment/10k       the same, rendered as the pull-request comment (Markdown, cut to GitHub's size)
#   jmh/2k            perfab compare on two JMH result files of 2,000 benchmarks x 3 forks
#   demo/create       perfab demo --create-only: the demo's subject written as a git repository
set -euo pipefail

jar="$PWD/orchestrator/target/perfab.jar"
[[ -f "$jar" ]] || { echo "self.sh: no $jar: the build did not write it" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/perfab-self.XXXXXX")"
trap 'rm -rf "$work"' EXIT

go_text() { # file seed shift_percent: 10,000 cells x 20 runs, every tenth shifted
  awk -v seed="$2" -v shift="$3" 'BEGIN {
    srand(seed);
    print "goos: linux\ngoarch: amd64\npkg: example.com/self";
    for (t = 0; t < 20; t++)
      for (c = 0; c < 10000; c++) {
        level = 100 + (c % 997); s = (c % 10 == 0) ? shift : 0;
        v = level * (1 + s / 100) * (1 + (rand() + rand() + rand() + rand() - 2) * 0.035);
        printf "BenchmarkCell%05d-2\t1000000\t%.3f ns/op\n", c, v;
      }
  }' > "$1"
}

jmh_json() { # file seed: 2,000 benchmarks x 3 forks of 5 iterations
  awk -v seed="$2" 'BEGIN {
    srand(seed); printf "[";
    for (b = 0; b < 2000; b++) {
      printf "%s{\"jmhVersion\": \"1.37\", \"benchmark\": \"org.self.Bench.m%04d\", \"mode\": \"avgt\", \"forks\": 3, \"params\": {\"size\": \"%d\"},", (b ? "," : ""), b, 16 * (b % 4 + 1);
      printf " \"primaryMetric\": {\"score\": 1.0, \"scoreUnit\": \"ns/op\", \"rawData\": [";
      for (f = 0; f < 3; f++) {
        printf "%s[", (f ? "," : "");
        for (i = 0; i < 5; i++) printf "%s%.4f", (i ? "," : ""), (50 + b % 50) * (1 + (rand() - 0.5) * 0.04);
        printf "]";
      }
      printf "]}}";
    }
    print "]";
  }' > "$1"
}

go_text "$work/base.txt" 1 0
go_text "$work/head.txt" 2 5
jmh_json "$work/jmh-base.json" 3
jmh_json "$work/jmh-head.json" 4

results=()
timed() { # cell, then the command; records wall and CPU seconds of the command and its children
  local cell="$1"; shift
  local t0 t1 c0 c1
  c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t0=$(date +%s%N)
  "$@" > /dev/null
  t1=$(date +%s%N)
  c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  local tick; tick=$(getconf CLK_TCK)
  results+=("{\"cell\": \"$cell\", \"metric\": \"wall\", \"unit\": \"s\", \"value\": $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f", (b - a) / 1e9}')}")
  results+=("{\"cell\": \"$cell\", \"metric\": \"cpu\", \"unit\": \"s\", \"value\": $(awk -v a="$c0" -v b="$c1" -v t="$tick" 'BEGIN {printf "%.3f", (b - a) / t}')}")
}

java_run() { java -XX:+UseSerialGC -Xmn16m -XX:TieredStopAtLevel=1 -jar "$jar" "$@"; }
timed startup java_run --version
timed compare/10k java_run compare --format json "$work/base.txt" "$work/head.txt"
timed comment/10k java_run compare --format markdown "$work/base.txt" "$work/head.txt"
timed jmh/2k java_run compare --format json "$work/jmh-base.json" "$work/jmh-head.json"
timed demo/create java_run demo --create-only --dir "$work/demo"

out="${PERFAB_RESULT:-/dev/stdout}"
{ echo '{"schema": "perfab/measurements/v1", "measurements": ['
  (IFS=,; echo "${results[*]}")
  echo ']}'; } > "$out"
