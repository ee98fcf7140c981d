#!/usr/bin/env bash
# After ctest: lists the tests that skipped, with their reasons, so that
# "passed" never hides "did not run". Criterion prints skips as
# "[SKIP] suite::test: reason" in verbose mode (the GPU binaries run so).
build=${1:-build}
log="$build/Testing/Temporary/LastTest.log"
[ -f "$log" ] || exit 0
skips=$(grep -E '\[SKIP\]|skipped: simtlab' "$log" | sed -E 's/^[^[]*(\[SKIP\])/\1/' | sort -u)
if [ -n "$skips" ]; then
  count=$(printf '%s\n' "$skips" | wc -l)
  echo
  echo "simtlab: $count test(s) skipped:"
  printf '%s\n' "$skips" | sed 's/^/  /' | head -40
fi
