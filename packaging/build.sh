#!/usr/bin/env bash
# The one build command:   bash packaging/build.sh [--clean]
#
# Produces the one-folder app dist/subcase/ (dist/subcase/subcase, or subcase.exe on
# Windows, plus dist/Subcase.app on macOS) from the repository root, whatever the
# current directory.  Needs Python >= 3.11 with the app's runtime dependencies and
# PyInstaller (installed here from the "package" extra if missing), and models/
# holding model.onnx, tokenizer.json, lexicon.json and model.json.
#
#   PYTHON=python3.11 bash packaging/build.sh   # choose the interpreter
#   bash packaging/build.sh --clean             # ignore PyInstaller's cache
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python

"$PYTHON" - <<'EOF'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"build.sh: Python >= 3.11 needed, this is {sys.version.split()[0]}")
EOF

if ! "$PYTHON" -c "import PyInstaller" >/dev/null 2>&1; then
  echo "build.sh: PyInstaller missing; installing the 'package' extra" >&2
  "$PYTHON" -m pip install "pyinstaller>=6.5"
fi

if ! "$PYTHON" -c "import PySide6.QtMultimedia" >/dev/null 2>&1; then
  echo "build.sh: QtMultimedia missing; installing the 'media' extra (PySide6-Addons)" >&2
  "$PYTHON" -m pip install -c constraints.txt "PySide6-Addons"
fi

MODELS="${SUBCASE_BUILD_MODELS:-models}"   # another model folder to bundle, if set
for f in model.onnx tokenizer.json lexicon.json model.json; do
  if [ ! -f "$MODELS/$f" ]; then
    echo "build.sh: $MODELS/$f is missing: export the model into models/ first" >&2
    exit 1
  fi
done

# Linux: Qt's X11 plugin links these xcb/xkb libraries; PyInstaller copies them into the
# bundle only if the build machine has them (otherwise X11 works only where they are installed).
if [ "$(uname -s)" = Linux ] && command -v ldconfig >/dev/null 2>&1; then
  missing_xcb=()
  for lib in libxcb-icccm.so.4 libxcb-keysyms.so.1 libxcb-cursor.so.0 libxcb-image.so.0 \
             libxcb-render-util.so.0 libxcb-shape.so.0 libxcb-xkb.so.1 libxkbcommon-x11.so.0; do
    ldconfig -p | grep -q "$lib" || missing_xcb+=("$lib")
  done
  if [ ${#missing_xcb[@]} -gt 0 ]; then
    echo "build.sh: WARNING this machine lacks ${missing_xcb[*]}; the bundle's X11 plugin will need them" \
         "on the user's machine. Install them first: apt-get install libxcb-icccm4 libxcb-keysyms1" \
         "libxcb-cursor0 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0" >&2
  fi
fi

EXTRA=()
for arg in "$@"; do
  case "$arg" in
    --clean) EXTRA+=(--clean) ;;
    *) echo "build.sh: unknown option $arg (only --clean)" >&2; exit 2 ;;
  esac
done

start=$(date +%s)
"$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
  "${EXTRA[@]+"${EXTRA[@]}"}" "$ROOT/packaging/subcase.spec"
end=$(date +%s)

case "$(uname -s)" in
  MINGW*|MSYS*|CYGWIN*|Windows_NT) exe="dist/subcase/subcase.exe" ;;
  *) exe="dist/subcase/subcase" ;;
esac
if [ ! -x "$exe" ] && [ ! -f "$exe" ]; then
  echo "build.sh: PyInstaller finished but $exe is missing" >&2
  exit 1
fi
size=$(du -sh dist/subcase | cut -f1)
echo "build.sh: built $exe in $((end - start)) s; dist/subcase is $size"
echo "build.sh: try it:  $exe --version   |   $exe convert FILE.srt -o OUT/   |   $exe FILE.srt"
