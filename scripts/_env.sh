# Shared by scripts/up and scripts/test: make .venv (Python >= 3.11) and install the project
# into it when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SIGNET_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"

"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || { echo "signet needs Python >= 3.11 (found: $("$PY" --version 2>&1))" >&2; exit 1; }
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"

ensure_installed() {  # $1 = extras spec, e.g. "" or "[test]"
  local stamp="$VENV/.signet-install$1" want
  want="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing signet$1 into $VENV ..." >&2
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT$1" >&2
    echo "$want" > "$stamp"
  fi
}
