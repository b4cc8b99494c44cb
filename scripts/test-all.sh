#!/usr/bin/env bash
# The README's test command (`npm run test:all`; `.ci/run` runs it after `npm ci`): the services the
# suites need, the static checks, then every suite. The suites on a real WordPress (`npm run
# test:wordpress`: PHP and MariaDB, mostly waiting on them) run beside jest's main run, which is one
# suite at a time: the two share the machine rather than add their times. Their output follows jest's.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/test-services.sh
npm run lint
npm run scan
npm run lint:openapi
# The package, built and packed once for every real-n8n suite (test/e2e/n8n.ts, buildPackage).
package_dir=$(mktemp -d)
npm pack --pack-destination "$package_dir" >/dev/null
WDM_PACKAGE_TARBALL=$(ls "$package_dir"/*.tgz)
export WDM_PACKAGE_TARBALL
wordpress_log=$(mktemp)
npm run test:wordpress >"$wordpress_log" 2>&1 &
wordpress=$!
status=0
npx jest || status=$?
wordpress_status=0
wait "$wordpress" || wordpress_status=$?
echo "---- npm run test:wordpress (ran beside jest) ----"
cat "$wordpress_log"
rm -rf "$wordpress_log" "$package_dir"
[ "$wordpress_status" -eq 0 ] || echo "npm run test:wordpress failed (exit $wordpress_status)" >&2
[ "$status" -eq 0 ] && [ "$wordpress_status" -eq 0 ]
