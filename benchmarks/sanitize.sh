#!/usr/bin/env bash
# Build every C module with AddressSanitizer and UndefinedBehaviorSanitizer into a scratch copy
# of the package and run the tests of the C code against them; any report fails the run.
#   bash benchmarks/sanitize.sh                (in the environment polyfit's tests run in)
#   bash benchmarks/sanitize.sh --build-only   (build and import them, run no test)
# The modules are those pyproject.toml declares ([[tool.setuptools.ext-modules]]: name, sources,
# the -std of extra-compile-args), so a new one is built here the day it is declared.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = "--build-only" ]; then
  build_only=1
  shift
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp -r polyfit "$out/"
find "$out/polyfit" -name '*.so' -delete
include=$(python -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$(python -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
# One line a module: its dotted name, its -std option, its sources.
modules=$(python - <<'EOF'
import tomllib

with open("pyproject.toml", "rb") as f:
    declared = tomllib.load(f)["tool"]["setuptools"]["ext-modules"]
for module in declared:
    std = next((a for a in module.get("extra-compile-args", []) if a.startswith("-std=")), "-std=gnu99")
    print(module["name"], std, *module["sources"])
EOF
)
names=()
while read -r name std sources; do
  target="$out/${name//.//}$suffix"
  # shellcheck disable=SC2086
  gcc "$std" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
      -fno-sanitize-recover=undefined -shared -fPIC -I"$include" -Ipolyfit/dlx \
      $sources -o "$target"
  names+=("$name")
done <<< "$modules"
asan=$(gcc -print-file-name=libasan.so)
cd "$out"  # so that this copy, not an installed polyfit, is the one imported
export LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0 POLYFIT_REQUIRE_C=1
python - "$out" "${names[@]}" <<'EOF'
import importlib
import sys

out, names = sys.argv[1], sys.argv[2:]
for name in names:
    module = importlib.import_module(name)
    if not module.__file__.startswith(out):
        sys.exit(f"{name} came from {module.__file__}, not the sanitized copy in {out}")
    print("sanitized:", name, module.__file__)
EOF
if [ "$build_only" = 1 ]; then
  exit 0
fi
python -m pytest -q -p no:cacheprovider --rootdir="$out" "$OLDPWD/tests/test_dlx.py" "$OLDPWD/tests/test_counts.py" \
  "$OLDPWD/tests/test_multiplicities.py" "$OLDPWD/tests/test_constraints.py" "$OLDPWD/tests/test_sanity.py" \
  "$OLDPWD/tests/test_memo.py" "$OLDPWD/tests/test_sample.py" "$OLDPWD/tests/test_reduce.py" "$OLDPWD/tests/test_reduce_packed.py" \
  "$OLDPWD/tests/test_disassembly.py" "$OLDPWD/tests/test_exact_ruler.py" "$OLDPWD/tests/test_burrtools_setup.py" \
  "$OLDPWD/tests/test_prism_disassembly.py" "$OLDPWD/tests/test_orientations.py" "$OLDPWD/tests/test_symmetry.py" \
  "$OLDPWD/tests/test_placements.py" "$OLDPWD/tests/test_lattices.py" \
  -k "not dlx-python and not python]" "$@"
