#!/usr/bin/env bash
# Build the one-folder desktop bundle with PyInstaller, then smoke-test it.
#
#   packaging/build_bundle.sh            # uses .venv/bin/python
#   PYTHON=/path/to/python packaging/build_bundle.sh
#
# Needs PyInstaller in that environment: pip install -e '.[bundle]'.
# Output: dist/torch-device-inspector/ (build files under build/pyinstaller/; both git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
cd "$REPO"

if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
    echo "error: PyInstaller is not installed in $PYTHON's environment; run: $PYTHON -m pip install -e '.[bundle]'" >&2
    exit 2
fi

"$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller \
    packaging/torch-device-inspector.spec

# Ship the desktop-entry installer at the top of the bundle, next to the executable.
install -m 755 packaging/install_desktop_entry.sh dist/torch-device-inspector/install-desktop-entry.sh

"$PYTHON" packaging/smoke_test.py dist/torch-device-inspector
