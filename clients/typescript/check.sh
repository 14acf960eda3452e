#!/bin/sh
# Types from the API's OpenAPI schema (openapi-typescript), then `tsc --strict --noEmit` on
# check files that use them. Usage (after `npm ci` here):
#   clients/typescript/check.sh SCHEMA WORKDIR [FILE...]
# SCHEMA: the schema file (`manage.py spectacular --file schema.yaml`) or its URL; WORKDIR gets
# api.d.ts and copies of the FILEs (names in check/, default good_move.ts). Exits with tsc's
# status: check/good_move.ts must pass, check/bad_move.ts must not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { echo "usage: $0 SCHEMA WORKDIR [FILE...]" >&2; exit 2; }
schema=$1
work=$2
shift 2
[ $# -gt 0 ] || set -- good_move.ts
mkdir -p "$work"
"$here/node_modules/.bin/openapi-typescript" "$schema" --output "$work/api.d.ts"
for file in "$@"; do
    cp "$here/check/$file" "$work/$file"
done
cd "$work"
exec "$here/node_modules/.bin/tsc" --strict --noEmit --pretty false --target es2022 \
    --module esnext --moduleResolution bundler "$@"
