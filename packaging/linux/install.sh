#!/usr/bin/env bash
# Installs subcase from the unpacked Linux tarball and registers its menu entry and icon.
#
#   ./install.sh                 for you:     ~/.local/lib/subcase, ~/.local/bin/subcase,
#                                             ~/.local/share/applications, ~/.local/share/icons
#   sudo ./install.sh --system   for everyone: /usr/local/lib/subcase, /usr/local/bin, /usr/local/share
#   ./install.sh --prefix DIR    anywhere:    DIR/lib/subcase, DIR/bin, DIR/share
#   ./install.sh --uninstall [--system|--prefix DIR]
#
# Uses xdg-desktop-menu / update-desktop-database / gtk-update-icon-cache when present
# to refresh the menus; works without them (the files are where the XDG specs say).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX="$HOME/.local"
MODE=user
ACTION=install
while [ $# -gt 0 ]; do
  case "$1" in
    --system) PREFIX=/usr/local; MODE=system; shift ;;
    --prefix) PREFIX="$2"; MODE=prefix; shift 2 ;;
    --uninstall) ACTION=uninstall; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$MODE" = user ] && [ -n "${XDG_DATA_HOME:-}" ]; then
  SHARE="$XDG_DATA_HOME"
else
  SHARE="$PREFIX/share"
fi
APPDIR="$PREFIX/lib/subcase"
BINDIR="$PREFIX/bin"
MANIFEST="$APPDIR/.installed-files"

refresh() {
  if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$SHARE/applications" 2>/dev/null || true
  fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$SHARE/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t -f "$SHARE/icons/hicolor" 2>/dev/null || true
  fi
  if command -v xdg-desktop-menu >/dev/null 2>&1 && [ "$MODE" != prefix ]; then
    xdg-desktop-menu forceupdate --mode "$MODE" 2>/dev/null || true
  fi
}

if [ "$ACTION" = uninstall ]; then
  if [ ! -f "$MANIFEST" ]; then
    echo "install.sh: no subcase installation under $PREFIX" >&2
    exit 1
  fi
  while IFS= read -r f; do
    rm -f -- "$f"
  done < "$MANIFEST"
  rm -rf -- "$APPDIR"
  refresh
  echo "subcase uninstalled from $PREFIX"
  exit 0
fi

[ -x "$HERE/subcase/subcase" ] || { echo "install.sh: run me from the unpacked tarball (no ./subcase/subcase here)" >&2; exit 1; }
if [ "$MODE" = system ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: --system needs root: sudo $0 --system" >&2
  exit 1
fi

# the app itself (replacing an older version)
rm -rf -- "$APPDIR"
mkdir -p "$(dirname "$APPDIR")" "$BINDIR" "$SHARE/applications"
cp -a "$HERE/subcase" "$APPDIR"
cp "$HERE/install.sh" "$APPDIR/install.sh"   # kept for --uninstall
: > "$MANIFEST"

# the command
ln -sfn "$APPDIR/subcase" "$BINDIR/subcase"
echo "$BINDIR/subcase" >> "$MANIFEST"

# the menu entry, pointing at the installed program whatever PATH the desktop session has
desktop="$SHARE/applications/subcase.desktop"
sed -e "s|^Exec=subcase|Exec=$APPDIR/subcase|" -e "s|^TryExec=subcase\$|TryExec=$APPDIR/subcase|" \
  "$HERE/share/applications/subcase.desktop" > "$desktop"
chmod 644 "$desktop"
echo "$desktop" >> "$MANIFEST"

# the icons
if [ -d "$HERE/share/icons" ]; then
  while IFS= read -r -d '' icon; do
    rel="${icon#"$HERE/share/"}"
    mkdir -p "$(dirname "$SHARE/$rel")"
    cp "$icon" "$SHARE/$rel"
    chmod 644 "$SHARE/$rel"
    echo "$SHARE/$rel" >> "$MANIFEST"
  done < <(find "$HERE/share/icons" -type f -print0)
fi

refresh
echo "subcase installed in $APPDIR"
echo "  menu entry: $desktop"
echo "  command:    $BINDIR/subcase"
case ":$PATH:" in
  *":$BINDIR:"*) ;;
  *) echo "  ($BINDIR is not on your PATH; add it to run 'subcase' from a terminal)" ;;
esac
