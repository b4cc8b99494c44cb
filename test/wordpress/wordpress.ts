// A real WordPress (Debian's `wordpress` package) on loopback, for the differential suite: MariaDB with
// its own data folder and socket (no TCP at all), PHP's built-in server in front of a temporary document
// root that links Debian's files and has its own wp-config.php (nothing is written to /etc or /usr).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { missingService } from '../helpers/services';

const run = promisify(execFile);

/** Where Debian's package puts WordPress. */
export const WORDPRESS_DIR = '/usr/share/wordpress';
/** The Debian packages the suite needs (scripts/test-services.sh installs them). */
export const WORDPRESS_PACKAGES = 'wordpress php-cli php-mysql php-xml php-mbstring php-curl mariadb-server';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor';

export interface SiteAccount {
	id: number;
	name: string;
	role: Role;
	/** An application password, for `Authorization: Basic`. */
	password: string;
}

export interface WordPressOptions {
	title: string;
	description: string;
	/** The accounts to make, each with the name of its application password; a user named `admin` is the installer's administrator. */
	users: { name: string; role: Role; appPassword: string }[];
}

export interface WordPress {
	url: string;
	accounts: SiteAccount[];
	/** Stops PHP and MariaDB and removes the temporary folder; safe to call twice. */
	stop: () => Promise<void>;
}

const children = new Set<ChildProcess>();
// A test run that dies anyway (a timeout, Ctrl-C) takes its servers with it.
process.once('exit', () => {
	for (const child of children) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
	try {
		process.kill(-child.pid!, signal);
	} catch {
		/* already gone */
	}
}

/** A daemon in its own process group, so that stopping it stops what it started too. */
function daemon(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; log: string }) {
	const out = fs.openSync(options.log, 'a');
	const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	children.add(child);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			killGroup(child, 'SIGTERM');
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
		}
		children.delete(child);
	};
	return { child, stop };
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms: number, log?: string): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > end) {
			const tail = log && fs.existsSync(log) ? `\n${fs.readFileSync(log, 'utf8').slice(-2000)}` : '';
			throw new Error(`${what} did not come up in ${ms} ms${tail}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** A free TCP port on loopback (PHP's built-in server cannot be asked for port 0 and tell which it got). */
async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** A clear message naming the install command, instead of a spawn error halfway. */
function checkInstalled() {
	const missing = [
		[path.join(WORDPRESS_DIR, 'wp-settings.php'), 'wordpress'],
		['/usr/bin/php', 'php-cli'],
		['/usr/sbin/mariadbd', 'mariadb-server'],
		['/usr/bin/mariadb-install-db', 'mariadb-server'],
	].filter(([file]) => !fs.existsSync(file));
	if (missing.length) {
		throw missingService(`WordPress (${missing.map(([, pkg]) => pkg).join(', ')})`, WORDPRESS_PACKAGES);
	}
}

const phpString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function wpConfig(url: string, socket: string) {
	const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
	return `<?php
// Written by test/wordpress/wordpress.ts for one run; Debian's own wp-config.php (which reads /etc/wordpress) is not used.
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${phpString(`localhost:${socket}`)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${salts.map((k) => `define('${k}', 'differential-suite-${k}');`).join('\n')}
$table_prefix = 'wp_';
// Application passwords over plain HTTP need a local environment.
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_HOME', ${phpString(url)});
define('WP_SITEURL', ${phpString(url)});
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', ${phpString(`${url}/wp-content`)});
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

// PHP's built-in server has no rewrite rules: files are served as they are, everything else goes to
// WordPress's front controller, so that /wp-json/... (pretty permalinks) and /index.php?rest_route= both work.
const ROUTER = `<?php
$path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
if ($path !== '/' && is_file(__DIR__ . $path)) return false;
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = __DIR__ . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require __DIR__ . '/index.php';
`;

// Installs the site as the web installer would, then makes the accounts and their application passwords.
const INSTALL = `<?php
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = '127.0.0.1';
// No mail server here: the "new site" mail is not sent.
function wp_new_blog_notification() {}
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$spec = json_decode(file_get_contents('php://stdin'), true);
wp_install($spec['title'], 'admin', 'admin@example.com', true, '', wp_generate_password(24), 'en_US');
update_option('blogdescription', $spec['description']);
update_option('admin_email', 'admin@example.com');
update_option('timezone_string', 'UTC');
update_option('gmt_offset', 0);
update_option('permalink_structure', '/%year%/%monthnum%/%day%/%postname%/');
// A clean start, like the reference server's: no sample post, page or comment.
foreach (get_posts(['post_type' => 'any', 'post_status' => 'any', 'numberposts' => -1]) as $p) wp_delete_post($p->ID, true);
foreach (get_comments(['status' => 'all']) as $c) wp_delete_comment($c->comment_ID, true);
$out = [];
foreach ($spec['users'] as $u) {
	$id = $u['name'] === 'admin' ? 1 : wp_insert_user(['user_login' => $u['name'], 'user_pass' => wp_generate_password(24), 'user_email' => $u['name'] . '@example.com', 'role' => $u['role']]);
	if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message()); exit(1); }
	$made = WP_Application_Passwords::create_new_application_password($id, ['name' => $u['appPassword']]);
	if (is_wp_error($made)) { fwrite(STDERR, $made->get_error_message()); exit(1); }
	$out[] = ['id' => $id, 'name' => $u['name'], 'role' => $u['role'], 'password' => $made[0]];
}
flush_rewrite_rules(false);
echo json_encode($out);
`;

/** Starts MariaDB and WordPress in a temporary folder; on any failure what was started is stopped again. */
export async function startWordPress(options: WordPressOptions): Promise<WordPress> {
	checkInstalled();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-wordpress-'));
	const stops: (() => Promise<void>)[] = [];
	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		for (const s of stops.reverse()) await s();
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		const user = os.userInfo().username;
		const data = path.join(dir, 'mysql');
		const socket = path.join(dir, 'mysqld.sock');
		const dbLog = path.join(dir, 'mysqld.log');
		await run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db']);
		const db = daemon(
			'mariadbd',
			[
				'--no-defaults',
				`--datadir=${data}`,
				`--socket=${socket}`,
				`--pid-file=${path.join(dir, 'mysqld.pid')}`,
				`--user=${user}`,
				`--log-error=${dbLog}`,
				'--skip-networking',
				'--skip-log-bin',
				// A throwaway database: durability is not wanted, speed is.
				'--innodb-flush-log-at-trx-commit=0',
				'--innodb-doublewrite=0',
				'--innodb-buffer-pool-size=64M',
			],
			{ cwd: dir, log: dbLog },
		);
		stops.push(db.stop);
		await until(
			'MariaDB',
			async () => {
				if (db.child.exitCode !== null) throw new Error(`mariadbd exited (${db.child.exitCode}): ${fs.readFileSync(dbLog, 'utf8').slice(-2000)}`);
				try {
					await run('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'CREATE DATABASE IF NOT EXISTS wordpress']);
					return true;
				} catch {
					return undefined;
				}
			},
			30_000,
			dbLog,
		);

		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		const root = path.join(dir, 'root');
		fs.mkdirSync(path.join(root, 'wp-content', 'uploads'), { recursive: true });
		// wp-load.php, index.php and the like find wp-config.php next to themselves (__DIR__, which PHP resolves
		// through symlinks): they are copied; the code folders are linked.
		for (const entry of fs.readdirSync(WORDPRESS_DIR)) {
			const from = path.join(WORDPRESS_DIR, entry);
			if (entry.endsWith('.php') && entry !== 'wp-config.php') fs.copyFileSync(from, path.join(root, entry));
		}
		fs.symlinkSync(path.join(WORDPRESS_DIR, 'wp-admin'), path.join(root, 'wp-admin'));
		fs.symlinkSync(path.join(WORDPRESS_DIR, 'wp-includes'), path.join(root, 'wp-includes'));
		fs.writeFileSync(path.join(root, 'wp-config.php'), wpConfig(url, socket));
		fs.writeFileSync(path.join(dir, 'router.php'), ROUTER.replace(/__DIR__/g, phpString(root)));
		fs.writeFileSync(path.join(dir, 'install.php'), INSTALL.replace(/__DIR__/g, phpString(root)));

		const installed = await new Promise<string>((resolve, reject) => {
			const child = execFile('php', [path.join(dir, 'install.php')], { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
				error ? reject(new Error(`WordPress install failed: ${stderr || stdout || error.message}`)) : resolve(stdout),
			);
			child.stdin!.end(JSON.stringify(options));
		});
		const accounts = JSON.parse(installed.slice(installed.indexOf('['))) as SiteAccount[];

		const phpLog = path.join(dir, 'php.log');
		// A few workers: WordPress answers one request per PHP process.
		const php = daemon('php', ['-S', `127.0.0.1:${port}`, '-t', root, path.join(dir, 'router.php')], {
			cwd: root,
			env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
			log: phpLog,
		});
		stops.push(php.stop);
		await until(
			'WordPress',
			async () => {
				if (php.child.exitCode !== null) throw new Error(`php -S exited (${php.child.exitCode}): ${fs.readFileSync(phpLog, 'utf8').slice(-2000)}`);
				try {
					const res = await fetch(`${url}/wp-json/`);
					return res.ok ? true : undefined;
				} catch {
					return undefined;
				}
			},
			30_000,
			phpLog,
		);
		return { url, accounts, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
