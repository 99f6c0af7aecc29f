#!/usr/bin/env bash
# Linux tarball: bash packaging/linux/make_tarball.sh [--dist DIR] [--out DIR]
#
# Packs the one-folder build (dist/subcase, from packaging/build.sh) with the .desktop
# file, the icons and install.sh into dist/subcase-<version>-linux-<arch>.tar.gz:
#
#   subcase-<version>-linux-<arch>/
#     subcase/                      the app (run subcase/subcase)
#     share/applications/subcase.desktop
#     share/icons/hicolor/<N>x<N>/apps/subcase.png   (and scalable/apps/subcase.svg)
#     install.sh                    registers it for this user (or --system)
#     README.txt
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="$ROOT/dist/subcase"
OUT="$ROOT/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --dist) DIST="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    *) echo "make_tarball.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

PYTHON="${PYTHON:-python3}"
VERSION="$("$PYTHON" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$ROOT/pyproject.toml")"
ARCH="$(uname -m)"
NAME="subcase-$VERSION-linux-$ARCH"
RES="$ROOT/resources"

[ -x "$DIST/subcase" ] || { echo "make_tarball.sh: $DIST/subcase missing: run bash packaging/build.sh first" >&2; exit 1; }
DESKTOP="$RES/subcase.desktop"
[ -f "$DESKTOP" ] || { echo "make_tarball.sh: $DESKTOP missing" >&2; exit 1; }

STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
T="$STAGE/$NAME"
mkdir -p "$T/share/applications"
cp -a "$DIST" "$T/subcase"
cp "$DESKTOP" "$T/share/applications/subcase.desktop"

# icons: resources/icons/subcase-<N>.png -> hicolor/<N>x<N>; subcase.png (size read from
# the PNG header) likewise; subcase.svg -> scalable
icons=0
shopt -s nullglob
for png in "$RES"/icons/subcase*.png "$RES"/subcase*.png; do
  size="$("$PYTHON" -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24); print(struct.unpack(">I", d[16:20])[0])' "$png")"
  dir="$T/share/icons/hicolor/${size}x${size}/apps"
  mkdir -p "$dir"
  cp "$png" "$dir/subcase.png"
  icons=$((icons + 1))
done
for svg in "$RES"/icons/subcase*.svg "$RES"/subcase*.svg; do
  mkdir -p "$T/share/icons/hicolor/scalable/apps"
  cp "$svg" "$T/share/icons/hicolor/scalable/apps/subcase.svg"
  icons=$((icons + 1))
done
[ "$icons" -gt 0 ] || echo "make_tarball.sh: WARNING no resources/icons/subcase*.png|svg; the menu entry has no icon" >&2

cp "$ROOT/packaging/linux/install.sh" "$T/install.sh"
chmod +x "$T/install.sh" "$T/subcase/subcase"
cat > "$T/README.txt" <<TXT
subcase $VERSION for Linux ($ARCH): a truecasing editor for subtitles.

Run it in place:       ./subcase/subcase [FILE.srt]
Command line:          ./subcase/subcase convert FILE.srt -o OUTDIR
Install for you:       ./install.sh            (app in ~/.local/lib/subcase, menu entry, icon,
                                                command ~/.local/bin/subcase)
Install for everyone:  sudo ./install.sh --system   (/usr/local/...)
Uninstall:             ~/.local/lib/subcase/install.sh --uninstall   (add --system if installed so)

Needs glibc 2.36 or newer (built on Debian 12); on X11 also libxcb (always present
with a desktop); everything else is inside subcase/.
TXT

mkdir -p "$OUT"
TARBALL="$OUT/$NAME.tar.gz"
tar -C "$STAGE" --owner=0 --group=0 --numeric-owner -czf "$TARBALL" "$NAME"
echo "make_tarball.sh: $TARBALL ($(du -h "$TARBALL" | cut -f1))"
