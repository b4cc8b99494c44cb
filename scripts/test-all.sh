#!/usr/bin/env bash
# The README's test command (`npm run test:all`; `.ci/run` runs it after `npm ci`): the services the
# suites need, the static checks, then every suite, one at a time (timing checks such as the connection
# caps' 1 s probes need the machine's two cores to themselves: run beside the WordPress suites, they failed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/test-services.sh
npm run lint
npm run scan
npm run lint:openapi
# The package, built and packed once for every real-n8n suite (test/e2e/n8n.ts, buildPackage).
package_dir=$(mktemp -d)
trap 'rm -rf "$package_dir"' EXIT
npm pack --pack-destination "$package_dir" >/dev/null
WDM_PACKAGE_TARBALL=$(ls "$package_dir"/*.tgz)
export WDM_PACKAGE_TARBALL
npx jest
npm run test:wordpress
