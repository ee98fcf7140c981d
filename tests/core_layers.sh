#!/usr/bin/env bash
# core.layers: the layers of DESIGN.md ("Layers and who may call whom") that
# the compiler alone does not hold, checked from the sources (no build needed).
#
#   1. The shared core sees no chapter. Every host file without a chapter
#      number (host/alloc.c, status.c, ...) is the core; the preprocessor
#      lists every header it includes, directly or through another header,
#      and none may be a chapter's (a file named NN_*) or simtlab/simtlab.h,
#      which includes them all.
#   2. Each host file has its own declarations in scope: every function it
#      defines for other files has a prototype (cc -Werror=missing-prototypes).
#      Since host/sl_internal.h brings no chapter, a chapter's file passes
#      only by including its own chapter's header.
#   3. kernels/ uses kernels/ only (kernels/common included): every quoted
#      #include of a file there names a file under kernels/.
#
# usage: core_layers.sh SOURCE_DIR CC [COMPILER FLAGS...]
#   COMPILER FLAGS: what a host file needs beyond the tree's own include
#   folders (the OpenBLAS include folder, as -isystem DIR).
set -uo pipefail

src=$(cd "${1:?usage: core_layers.sh SOURCE_DIR CC [FLAGS...]}" && pwd)
cc=${2:?usage: core_layers.sh SOURCE_DIR CC [FLAGS...]}
shift 2
# The emulator's toolkit headers stand in for CUDA's: the checks read the
# sources' own includes, which are the same in both builds.
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -I"$src/emu/include" -I"$src/host/include" -I"$src/host"
       -I"$src/kernels" "$@")
failed=0
fail() {
    echo "core_layers.sh: FAIL: $*"
    failed=1
}

# ---- 1. the core includes no chapter ----------------------------------------
core=()
for f in "$src"/host/*.c; do
    case "$(basename "$f")" in [0-9][0-9]_*) ;; *) core+=("$f") ;; esac
done
[ ${#core[@]} -ge 5 ] || fail "found only ${#core[@]} core files in $src/host"
for f in "${core[@]}"; do
    if ! deps=$("$cc" "${flags[@]}" -MM -MG "$f" 2>&1); then
        fail "$cc -MM ${f#"$src"/}: $deps"
        continue
    fi
    # One header a line, the object's name and the continuations dropped.
    bad=$(printf '%s\n' "$deps" | tr ' \\' '\n\n' | grep -E '(^|/)([0-9][0-9]_[^/]*|simtlab\.h)$' | sort -u)
    [ -z "$bad" ] || fail "${f#"$src"/} is core but includes a chapter's header:" $bad
done

# ---- 2. every host file has its chapter's prototypes in scope ----------------
for f in "$src"/host/*.c; do
    if ! out=$("$cc" "${flags[@]}" -fsyntax-only -Werror=missing-prototypes "$f" 2>&1); then
        fail "${f#"$src"/} defines a function with no prototype in scope (include its chapter's header):"
        printf '%s\n' "$out" | grep -E 'error' | head -5
    fi
done

# ---- 3. kernels/ includes nothing outside kernels/ -----------------------------
while IFS= read -r f; do
    dir=$(dirname "$f")
    while IFS= read -r inc; do
        target=$(realpath -m "$dir/$inc")
        case "$target" in
        "$src"/kernels/*) [ -f "$target" ] || fail "${f#"$src"/} includes \"$inc\", which names no file of kernels/ (kernels may use kernels/common only)" ;;
        *) fail "${f#"$src"/} includes \"$inc\", outside kernels/ (kernels may use kernels/common only)" ;;
        esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find "$src/kernels" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) | sort)

if [ "$failed" -ne 0 ]; then
    echo "core_layers.sh: the layers are broken (see DESIGN.md, \"Layers and who may call whom\")"
    exit 1
fi
echo "core_layers.sh: ${#core[@]} core files include no chapter; every host file has its prototypes;" \
     "kernels/ includes only kernels/"
