#!/usr/bin/env bash
# Prints the failing tests of a `node --test` TAP log: each `not ok` line
# and, for a test that failed itself (not only through its subtests), its
# YAML diagnostic (error, location, stack), cut at 40 lines.
#
#   bash scripts/failures.sh LOG...
#
# The test scripts call it last when a stage failed, so the failures are
# at the end of the run's output, which CI shows when it cuts the middle.
set -euo pipefail
for log in "$@"; do
  awk -v log_name="$log" '
    function flush() {
      if (block != "") {
        if (block !~ /failureType: .subtestsFailed./) printf "%s", block
        else printf "%s\n", head
      }
      block = ""; head = ""; open = 0
    }
    /^[[:space:]]*not ok / {
      flush()
      if (!shown) { print "-- failing tests in " log_name; shown = 1 }
      match($0, /^[[:space:]]*/); indent = RLENGTH
      head = $0; block = $0 "\n"; open = 1; lines = 0
      next
    }
    open {
      if (++lines <= 40) block = block $0 "\n"
      match($0, /^[[:space:]]*/)
      if ($0 ~ /^[[:space:]]*\.\.\.$/ && RLENGTH == indent + 2) flush()
    }
    END { flush() }
  ' "$log"
done
