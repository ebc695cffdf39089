#!/usr/bin/env bash
# Build the C backends with AddressSanitizer and UndefinedBehaviorSanitizer into a scratch copy
# of the package and run the backend tests against them; any report fails the run.
#   bash benchmarks/sanitize.sh            (in the environment polyfit's tests run in)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
cp -r polyfit "$out/"
rm -f "$out"/polyfit/dlx/*.so "$out"/polyfit/motion/*.so
include=$(python -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$(python -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
for module in _dlxc _dlxmc _bsx _memo; do
  gcc -std=gnu99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
      -fno-sanitize-recover=undefined -shared -fPIC -I"$include" \
      "polyfit/dlx/$module.c" -o "$out/polyfit/dlx/$module$suffix"
done
gcc -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
    -fno-sanitize-recover=undefined -shared -fPIC -I"$include" \
    polyfit/motion/_motion.c -o "$out/polyfit/motion/_motion$suffix"
asan=$(gcc -print-file-name=libasan.so)
cd "$out"  # so that this copy, not an installed polyfit, is the one imported
export LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0 POLYFIT_REQUIRE_C=1
python -c "import polyfit.dlx._dlxc as a, polyfit.dlx._dlxmc as m, polyfit.dlx._bsx as b, polyfit.dlx._memo as c, polyfit.motion._motion as d; print('sanitized:', a.__file__, m.__file__, b.__file__, c.__file__, d.__file__)"
python -m pytest -q -p no:cacheprovider --rootdir="$out" "$OLDPWD/tests/test_dlx.py" "$OLDPWD/tests/test_counts.py" \
  "$OLDPWD/tests/test_multiplicities.py" "$OLDPWD/tests/test_constraints.py" "$OLDPWD/tests/test_sanity.py" \
  "$OLDPWD/tests/test_memo.py" "$OLDPWD/tests/test_sample.py" "$OLDPWD/tests/test_disassembly.py" "$OLDPWD/tests/test_exact_ruler.py" \
  -k "not dlx-python and not python]" "$@"
