#!/usr/bin/env bash
# tutorial/notebook.ipynb, executed as a student's notebook service would,
# on this build: papermill with the parameters that skip the clone and the
# tests (make test runs those already) and reuse this build, and chapter
# 03's benchmark at --quick sizes. It must run every cell without an error
# and show at least one chart. Skips, saying why, without papermill
# (SIMTLAB_WITH_NOTEBOOK=1 scripts/deps.sh installs it; CI does).
#
# usage: notebook_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
if ! python3 -c 'import papermill, ipykernel' >/dev/null 2>&1; then
  echo "simtlab-skip: papermill or ipykernel is not installed (SIMTLAB_WITH_NOTEBOOK=1 scripts/deps.sh installs them)"
  exit 0
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/simtlab-notebook.XXXXXX")
trap 'rm -rf "$out"' EXIT
python3 -m papermill "$src/tutorial/notebook.ipynb" "$out/notebook.out.ipynb" -k python3 --cwd "$out" \
  -p CLONE False -p REPO_DIR "$src" -p BUILD_DIR "$build" -p RUN_TESTS False -r CHAPTER 03 \
  -r BENCH_FLAGS --quick
python3 - "$out/notebook.out.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
images = sum(1 for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
             if "image/png" in o.get("data", {}))
errors = [o for c in nb["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
print("notebook: %d cells, %d charts shown, %d errors" % (len(nb["cells"]), images, len(errors)))
sys.exit(0 if images >= 1 and not errors else 1)
PY
