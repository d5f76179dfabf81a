#!/usr/bin/env bash
# Serves the Foundry module so that Foundry's Install Module can reach it
# without a release: builds dist/furtive.zip when it is missing or older
# than what goes into it (scripts/build-foundry.sh), copies it into
# dist/local/ with a module.json whose `download` is this server's zip (the
# zip carries the same module.json), serves dist/local/ with Python's
# http.server and prints the manifest URL to paste into Foundry.
#
#   bash scripts/serve-module.sh [--port N] [--host ADDRESS] [--for SECONDS]
#
# --host: the address Foundry's server reaches this machine at (default
# 127.0.0.1: Foundry on this machine); the server listens on it.
# --for: stop by itself after that many seconds (default: until Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."

port=30080
host=127.0.0.1
seconds=
usage() { echo "${1:+serve-module: $1
}usage: bash scripts/serve-module.sh [--port N] [--host ADDRESS] [--for SECONDS]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --port | --host | --for) [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value" ;;&
    --port) port=$2; shift 2 ;;
    --host) host=$2; shift 2 ;;
    --for) seconds=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ $port =~ ^[1-9][0-9]{0,4}$ ]] && [ "$port" -le 65535 ] || usage "--port \"$port\" is not a port (1-65535)"
[ -z "$seconds" ] || [[ $seconds =~ ^[1-9][0-9]*$ ]] || usage "--for \"$seconds\" is not a number of seconds (1 or more)"
# Foundry's server downloads from the printed URL: a wildcard address is
# one to listen on, not one to download from.
case "$host" in
  0.0.0.0 | :: | "[::]") usage "--host $host is not an address Foundry can download from: give this machine's address as Foundry's server reaches it" ;;
esac
# An IPv6 address is written in brackets in a URL.
url_host=$host
[[ $host != *:* ]] || url_host="[$host]"
# The address must be this machine's, and the port free (another program
# on it would answer instead of this server).
if ! why=$(python3 -c '
import errno, socket, sys
try:
    family = socket.getaddrinfo(sys.argv[1], int(sys.argv[2]), type=socket.SOCK_STREAM)[0][0]
    socket.create_server((sys.argv[1], int(sys.argv[2])), family=family).close()
except OSError as error:
    sys.exit("is in use: stop what holds it, or give another --port" if error.errno == errno.EADDRINUSE else f"cannot be listened on ({error.strerror or error})")
' "$host" "$port" 2>&1); then
  echo "serve-module: $host:$port $why" >&2
  exit 1
fi

# What goes into the zip: the module's own files, the npm package's
# JavaScript entry files (npm/*.js) and the engine's Rust sources; not what
# other builds leave in npm/ (wasm/, the napi addon).
if [ ! -f dist/furtive.zip ] || [ -n "$(
  find Cargo.toml Cargo.lock -newer dist/furtive.zip -print -quit
  find foundry-module crates -path '*/node_modules' -prune -o -path foundry-module/engine -prune -o -type f -newer dist/furtive.zip -print -quit
  find npm -maxdepth 1 -type f -name '*.js' -newer dist/furtive.zip -print -quit
)" ]; then
  bash scripts/build-foundry.sh
fi

base="http://$url_host:$port"
rm -rf dist/local
mkdir -p dist/local
cp dist/furtive.zip dist/local/furtive.zip
node scripts/module-manifest.mjs write --in foundry-module/module.json \
  --manifest "$base/module.json" --download "$base/furtive.zip" --out dist/local/module.json >/dev/null
(
  cd dist/local
  touch -d '2000-01-01 00:00:00 UTC' module.json
  zip -q -X furtive.zip module.json
)
node scripts/module-manifest.mjs check dist/local/module.json dist/local/furtive.zip >/dev/null

echo "serve-module: in Foundry's setup screen, Add-on Modules -> Install Module, paste this Manifest URL and click Install:"
echo
echo "    $base/module.json"
echo
echo "serve-module: serving dist/local/ on $base${seconds:+ for $seconds s} (Ctrl-C stops)"
if [ -n "$seconds" ]; then
  # timeout's 124 is the stop we asked for.
  timeout "$seconds" python3 -m http.server --bind "$host" --directory dist/local "$port" || [ $? -eq 124 ]
  exit 0
fi
exec python3 -m http.server --bind "$host" --directory dist/local "$port"
