#!/usr/bin/env bash
# Run by scripts/package_check.sh, from a copy in its temporary folder, with
# the source and build trees out of the way: checks loupec and loupe as the
# .deb installs them (unpacked in WORK/root), on data copied to WORK/data.
#
# usage: package_installed_check.sh WORK SOURCE_DIR BUILD_DIR VERSION hidden|moved
# (hidden: both trees are covered by empty mounts; moved: the build tree is
# renamed and the source tree, which holds the scripts, is still there)
set -euo pipefail

work=$1 source_dir=$2 build_dir=$3 version=$4 trees=$5
root=$work/root
bin=$root/usr/bin
cd /

fail() {
  echo "package: FAILED: $*" >&2
  exit 1
}

[ ! -e "$build_dir/CMakeCache.txt" ] || fail "the build tree $build_dir is still there"
if [ "$trees" = hidden ] && [ -e "$source_dir/CMakeLists.txt" ]; then
  fail "the source tree $source_dir is still there"
fi

# Nothing installed refers to where it was built: the source and build trees'
# paths appear in no installed file.
for tree in "$source_dir" "$build_dir"; do
  if grep -rlF -- "$tree" "$root"; then fail "the files above contain the path $tree"; fi
done
echo "installed: no file names $source_dir or $build_dir"

# The user's cache and home are temporary too: firmware builds go to
# $XDG_CACHE_HOME/loupe, and loupe keeps no settings with --screenshot.
export HOME=$work/home XDG_CACHE_HOME=$work/cache
mkdir -p "$HOME"
export PATH=$bin:/usr/bin:/bin

[ "$(loupec --version)" = "loupec $version" ] || fail "loupec --version: $(loupec --version)"
[ "$(loupe --version)" = "loupe $version" ] || fail "loupe --version: $(loupe --version)"
help=$(loupec --help)
for verb in info compile run memplan generate platforms; do
  grep -q "^  loupec $verb" <<< "$help" || fail "loupec --help does not document $verb"
done
echo "installed: loupec and loupe $version, loupec --help documents every verb"

info=$(loupec info "$work/data/model.tflite") || fail "loupec info exited $?"
grep -q "FULLY_CONNECTED" <<< "$info" || fail "loupec info lists no FULLY_CONNECTED: $info"
loupec info "$root/usr/share/loupe/models/kws_ref_model.tflite" > /dev/null ||
  fail "loupec info on the installed default model"
echo "installed: loupec info on hello_world_int8 and on share/loupe/models/kws_ref_model.tflite"

# The host platform builds the firmware from the C runtime and templates
# embedded in loupec, runs it and compares with the reference interpreter.
loupec run "$work/data/model.tflite" --platform host --inputs "$work/data/input0.bin" \
  --output-dir "$work/out" > "$work/run.log" 2>&1 || { cat "$work/run.log"; fail "loupec run"; }
cmp "$work/out/output0.bin" "$work/data/output0.bin" ||
  fail "host output differs from TFLite Micro's golden output0.bin"
echo "installed: loupec run --platform host: output0.bin bit-exact with the golden output"

# Without the Arm toolchain and QEMU, only the QEMU boards are unavailable,
# and they name the packages to install.
mkdir -p "$work/tools"
for tool in cc make; do ln -s "$(command -v "$tool")" "$work/tools/$tool"; done
platforms=$(PATH=$bin:$work/tools loupec platforms)
grep -A1 -x "host" <<< "$platforms" | grep -q "ready" || fail "host not ready: $platforms"
for board in qemu-mps2-an385 qemu-mps3-an547; do
  grep -A1 -x "$board" <<< "$platforms" |
    grep -q "unavailable (install gcc-arm-none-eabi binutils-arm-none-eabi qemu-system-arm)" ||
    fail "$board without its tools: $platforms"
done
if PATH=$bin:$work/tools loupec run "$work/data/model.tflite" --platform qemu-mps2-an385 \
  --inputs "$work/data/input0.bin" --output-dir "$work/out-m3" > /dev/null 2> "$work/m3.log"; then
  fail "loupec run on qemu-mps2-an385 succeeded without arm-none-eabi-gcc"
fi
grep -q "install the Debian package gcc-arm-none-eabi" "$work/m3.log" ||
  fail "the QEMU run's error does not name the package: $(cat "$work/m3.log")"
echo "installed: without arm-none-eabi-gcc and qemu-system-arm only the QEMU boards are" \
  "unavailable, naming gcc-arm-none-eabi binutils-arm-none-eabi qemu-system-arm"

# The IDE, offscreen, on its built-in default model and on a model by path.
for model in "" "$work/data/model.tflite"; do
  png=$work/screenshot${model:+-model}.png
  QT_QPA_PLATFORM=offscreen loupe --screenshot "$png" --view graph ${model:+"$model"} \
    > "$work/loupe.log" 2>&1 || { cat "$work/loupe.log"; fail "loupe --screenshot $model"; }
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "$png is no PNG"
  [ "$(stat -c %s "$png")" -gt 10000 ] || fail "$png is too small to show a window"
done
echo "installed: loupe --screenshot (offscreen, graph view) of the bundled model and of a file"

# Desktop integration: the files validate, and the MIME database built from
# the installed package maps *.tflite and the TFL3 identifier to the type the
# launcher opens.
share=$root/usr/share
desktop-file-validate "$share"/applications/*.desktop || fail "desktop-file-validate"
appstreamcli validate --no-net --explain "$share"/metainfo/*.metainfo.xml > "$work/appstream.log" ||
  { cat "$work/appstream.log"; fail "appstreamcli validate"; }
grep -q "^MimeType=application/x-tflite;" "$share"/applications/*.desktop ||
  fail "the launcher does not open application/x-tflite"
cp -r "$share/mime" "$work/mime"
update-mime-database "$work/mime" > "$work/mime.log" 2>&1 ||
  { cat "$work/mime.log"; fail "update-mime-database"; }
grep -qx "50:application/x-tflite:\*.tflite" "$work/mime/globs2" || fail "no *.tflite glob"
grep -q "TFL3" "$work/mime/magic" || fail "no TFL3 magic"
echo "installed: .desktop and AppStream metadata validate; the MIME database maps *.tflite"
for page in loupe loupec; do
  [ -s "$share/man/man1/$page.1.gz" ] || fail "no man page for $page"
done

# The bundled tuning logs are installed to share/loupe/tuning and found from
# the executable: generating the default model's project for the M55 (no
# build) tunes its workloads with them, and --no-tuning-log opts out.
ls "$share"/loupe/tuning/*.jsonl > /dev/null 2>&1 || fail "no tuning logs in share/loupe/tuning"
loupec generate "$share/loupe/models/kws_ref_model.tflite" --platform qemu-mps3-an547 \
  --output "$work/kws-m55" > "$work/bundled.log" 2>&1 ||
  { cat "$work/bundled.log"; fail "loupec generate --platform qemu-mps3-an547"; }
grep -q "^bundled tuning logs (qemu-mps3-an547): [1-9][0-9]* of " "$work/bundled.log" ||
  fail "the bundled tuning logs tuned nothing: $(cat "$work/bundled.log")"
loupec generate "$share/loupe/models/kws_ref_model.tflite" --platform qemu-mps3-an547 \
  --output "$work/kws-m55-default" --no-tuning-log > "$work/default.log" 2>&1 ||
  { cat "$work/default.log"; fail "loupec generate --no-tuning-log"; }
if grep -q "tuning log" "$work/default.log"; then fail "--no-tuning-log: $(cat "$work/default.log")"; fi
echo "installed: share/loupe/tuning's logs tune kws for qemu-mps3-an547, --no-tuning-log opts out"

# A board added as a folder under share/loupe/boards of the unpacked tree,
# found from the executable's own path, runs the model like a built-in board;
# a malformed folder is reported, not fatal.
boards=$share/loupe/boards
mkdir -p "$boards/my_an385" "$boards/broken"
cp "$work/data/board/board.h" "$work/data/board/linker.ld" "$boards/my_an385/"
sed 's/"qemu_mps2_an385"/"my_an385"/' "$work/data/board/board.json" > "$boards/my_an385/board.json"
echo "/* the user's linker script */" >> "$boards/my_an385/linker.ld"
echo "{" > "$boards/broken/board.json"
platforms=$(loupec platforms)
grep -A1 -x "my-an385" <<< "$platforms" | grep -q "ready: .*Cortex-M3" ||
  fail "the board folder my_an385 is not a ready platform: $platforms"
grep -q "^board folder $boards/broken: skipped: " <<< "$platforms" ||
  fail "the broken board folder is not reported: $platforms"
loupec run "$work/data/model.tflite" --platform my-an385 --inputs "$work/data/input0.bin" \
  --output-dir "$work/out-user-board" > "$work/user-board.log" 2>&1 ||
  { cat "$work/user-board.log"; fail "loupec run --platform my-an385"; }
cmp "$work/out-user-board/output0.bin" "$work/data/output0.bin" ||
  fail "my-an385 output differs from the golden output0.bin"
grep -rqx "/\* the user's linker script \*/" "$XDG_CACHE_HOME/loupe" ||
  fail "the firmware was not built with the board folder's linker.ld"
echo "installed: a board folder in share/loupe/boards runs the model (bit-exact), a broken one" \
  "is reported by loupec platforms"
