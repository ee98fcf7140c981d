#!/usr/bin/env bash
# After ctest: says which tests skipped and why, so that "passed" never hides
# "did not run". Criterion prints a skip as "[SKIP] suite::test: reason" (the
# GPU binaries run verbose so it is in the log); other skipping tests print
# "skipped: simtlab: ...". Tests with the same reason are counted together.
build=${1:-build}
log="$build/Testing/Temporary/LastTest.log"
[ -f "$log" ] || exit 0
skips=$(grep -E '\[SKIP\]|skipped: simtlab' "$log" | sed -E 's/^[^[]*(\[SKIP\])/\1/' | sort -u)
[ -n "$skips" ] || exit 0
count=$(printf '%s\n' "$skips" | wc -l)
echo
echo "simtlab: $count test(s) skipped:"
printf '%s\n' "$skips" | sed -E 's/^(\[SKIP\] [^:]+::[^:]+|[^:]+): (skipped: )?//' | sort | uniq -c |
  sed -E 's/^ *([0-9]+) /  \1 x /'
names=$(printf '%s\n' "$skips" | sed -E 's/^\[SKIP\] ([^:]+::[^:]+):.*/\1/; s/^([^:]+): skipped:.*/\1/' |
  tr "\n" " " | fold -s -w 100 | sed "s/^/    /")
lines=$(printf '%s\n' "$names" | wc -l)
if [ "$lines" -gt 8 ]; then
  shown=$(printf '%s\n' "$names" | head -8)
  left=$(( count - $(printf '%s\n' "$shown" | wc -w) ))
  printf '%s\n    ... and %d more (all of them: grep SKIP %s)\n' "$shown" "$left" "$log"
else
  printf '%s\n' "$names"
fi
if grep -q 'no usable CUDA GPU on this machine' "$log"; then
  echo "simtlab: no GPU on this machine: the GPU tests skipped, and the emulator ran every test (emu.*)."
fi
echo
