#!/usr/bin/env bash
# Add Torch Device Inspector to the desktop's application menu, for the current user (Linux).
#
#   ./install-desktop-entry.sh                      # from an unpacked bundle: uses the bundle
#   packaging/install_desktop_entry.sh [EXECUTABLE [RESOURCES_DIR]]
#   packaging/install_desktop_entry.sh --uninstall
#
# EXECUTABLE defaults to the bundle's executable next to this script, else the
# `torch-device-inspector` on PATH (a pip install). RESOURCES_DIR defaults to the bundle's, the
# source tree's, or the pip-installed package's resources. Files go where the XDG base
# directory spec says ($XDG_DATA_HOME, by default ~/.local/share): applications/, icons/hicolor/,
# metainfo/. Nothing needs root.
set -euo pipefail

APP_ID="io.github.torch_device_inspector.TorchDeviceInspector"
NAME="torch-device-inspector"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"

refresh_caches() {
    # Menus and icon themes cache what they show; refresh them where the tools exist.
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$DATA/icons/hicolor" 2>/dev/null || true
}

if [[ "${1:-}" == "--uninstall" ]]; then
    rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/metainfo/$APP_ID.metainfo.xml"
    rm -f "$DATA"/icons/hicolor/*/apps/"$APP_ID".{png,svg}
    refresh_caches
    echo "removed the desktop entry and icons of $APP_ID from $DATA"
    exit 0
fi

EXECUTABLE="${1:-}"
if [[ -z "$EXECUTABLE" ]]; then
    if [[ -x "$HERE/$NAME" ]]; then
        EXECUTABLE="$HERE/$NAME"
    else
        EXECUTABLE="$(command -v "$NAME" || true)"
    fi
fi
if [[ -z "$EXECUTABLE" || ! -x "$EXECUTABLE" ]]; then
    echo "error: no $NAME executable found; pass its path: $0 /path/to/$NAME" >&2
    exit 2
fi
EXECUTABLE="$(cd "$(dirname "$EXECUTABLE")" && pwd)/$(basename "$EXECUTABLE")"
if [[ "$EXECUTABLE" =~ [\"\`\$\\] ]]; then
    echo "error: the path $EXECUTABLE has a character a desktop entry cannot quote simply (\" \` \$ \\)" >&2
    exit 2
fi

RESOURCES="${2:-}"
if [[ -z "$RESOURCES" ]]; then
    for candidate in "$HERE/_internal/inspector/resources" "$HERE/../resources"; do
        if [[ -f "$candidate/$APP_ID.desktop" ]]; then RESOURCES="$candidate"; break; fi
    done
fi
if [[ -z "$RESOURCES" ]]; then
    # A pip install: ask the Python the console script runs with (its #! line) where the files are.
    python="$(head -n 1 "$EXECUTABLE" | sed -n 's/^#!//p')"
    if [[ -n "$python" ]]; then
        RESOURCES="$($python -c 'from importlib.resources import files; print(files("inspector.resources"))' 2>/dev/null || true)"
    fi
fi
if [[ -z "$RESOURCES" || ! -f "$RESOURCES/$APP_ID.desktop" ]]; then
    echo "error: the app's resources (its .desktop entry and icons) were not found; pass their folder as the second argument" >&2
    exit 2
fi

mkdir -p "$DATA/applications" "$DATA/metainfo"
# Point Exec at this very executable: a desktop session's PATH rarely includes a virtual
# environment or an unpacked bundle.
sed "s|^Exec=.*|Exec=\"$EXECUTABLE\"|" "$RESOURCES/$APP_ID.desktop" > "$DATA/applications/$APP_ID.desktop"
cp "$RESOURCES/$APP_ID.metainfo.xml" "$DATA/metainfo/"
for icon in "$RESOURCES"/icons/hicolor/*/apps/"$APP_ID".*; do
    size_dir="$(basename "$(dirname "$(dirname "$icon")")")"  # e.g. 48x48 or scalable
    mkdir -p "$DATA/icons/hicolor/$size_dir/apps"
    cp "$icon" "$DATA/icons/hicolor/$size_dir/apps/"
done
refresh_caches
echo "installed $DATA/applications/$APP_ID.desktop (runs $EXECUTABLE) and its icons under $DATA/icons/hicolor"
