#!/usr/bin/env bash
# The bundle smoke test:   bash packaging/smoke_test.sh [--no-build] [pytest args...]
#
# Builds dist/subcase with packaging/build.sh (unless --no-build), packs the Linux
# tarball, then runs tests/installers against them: `subcase --version`, `subcase convert`
# on ../shared/data/dev-subtitles (checked against the source run), the GUI offscreen
# (and on X11 under xvfb-run when present) with --smoke-test, a same-stem media file opened
# by the bundled QtMultimedia (a WAV, and an h264 mkv when ffmpeg is present), no-argument GUI start,
# bundle contents (no torch/transformers, only the needed Qt plugins), tarball install.
# About 2-3 minutes on 2 cores, most of it the build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python

BUILD=1
if [ "${1:-}" = "--no-build" ]; then BUILD=0; shift; fi
[ "$BUILD" = 1 ] && bash packaging/build.sh

export SUBCASE_TEST_BUNDLE="$ROOT/dist/subcase"
case "$(uname -s)" in
  Linux)
    bash packaging/linux/make_tarball.sh
    VERSION="$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')"
    export SUBCASE_TEST_TARBALL="$ROOT/dist/subcase-$VERSION-linux-$(uname -m).tar.gz"
    ;;
esac
du -sh dist/subcase
exec "$PYTHON" -m pytest -q -rs -p no:cacheprovider tests/installers "$@"
