#!/usr/bin/env bash
# The bundled example: filled in as the features land.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/rsplars --help
