/**
 * Migrations, applied in order; `PRAGMA user_version` records how many ran. Append, never edit:
 * a store written by an older server is upgraded in place.
 */
export const migrations: string[] = [
	`
	CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

	CREATE TABLE users (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		api_key_hash TEXT NOT NULL UNIQUE,
		created_at INTEGER NOT NULL
	);

	CREATE TABLE devices (
		id TEXT PRIMARY KEY,
		user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		name TEXT NOT NULL UNIQUE,
		token_hash TEXT NOT NULL UNIQUE,
		status TEXT NOT NULL DEFAULT 'disconnected',
		phone TEXT,
		profile_name TEXT,
		is_business INTEGER NOT NULL DEFAULT 1,
		created_at INTEGER NOT NULL,
		last_disconnect INTEGER,
		last_disconnect_reason TEXT,
		qr_code TEXT,
		pair_code TEXT,
		qr_expires_at INTEGER
	);
	CREATE INDEX devices_phone ON devices(phone);

	CREATE TABLE files (
		id TEXT PRIMARY KEY,
		mimetype TEXT NOT NULL,
		file_name TEXT NOT NULL,
		size INTEGER NOT NULL,
		data BLOB NOT NULL,
		created_at INTEGER NOT NULL
	);

	CREATE TABLE messages (
		id TEXT PRIMARY KEY,
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		messageid TEXT NOT NULL,
		chatid TEXT NOT NULL,
		sender TEXT NOT NULL,
		sender_name TEXT,
		from_me INTEGER NOT NULL,
		is_group INTEGER NOT NULL,
		message_type TEXT NOT NULL,
		text TEXT,
		timestamp INTEGER NOT NULL,
		status TEXT NOT NULL,
		quoted TEXT,
		mentions TEXT NOT NULL DEFAULT '[]',
		forwarded INTEGER NOT NULL DEFAULT 0,
		edited INTEGER NOT NULL DEFAULT 0,
		reaction TEXT,
		file_id TEXT REFERENCES files(id) ON DELETE SET NULL,
		mimetype TEXT,
		file_name TEXT,
		content TEXT NOT NULL DEFAULT '{}',
		track_source TEXT,
		track_id TEXT,
		was_sent_by_api INTEGER NOT NULL DEFAULT 0,
		send_at INTEGER,
		pending TEXT
	);
	CREATE INDEX messages_device_time ON messages(device_id, timestamp DESC);
	CREATE INDEX messages_device_chat ON messages(device_id, chatid, timestamp DESC);
	CREATE INDEX messages_device_track ON messages(device_id, track_source, track_id);
	CREATE INDEX messages_messageid ON messages(messageid);
	CREATE INDEX messages_queued ON messages(send_at) WHERE status = 'queued';

	CREATE TABLE chats (
		id TEXT PRIMARY KEY,
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		chatid TEXT NOT NULL,
		name TEXT NOT NULL DEFAULT '',
		is_group INTEGER NOT NULL DEFAULT 0,
		pinned INTEGER NOT NULL DEFAULT 0,
		archived INTEGER NOT NULL DEFAULT 0,
		mute_end INTEGER NOT NULL DEFAULT 0,
		unread INTEGER NOT NULL DEFAULT 0,
		last_msg_ts INTEGER NOT NULL DEFAULT 0,
		last_msg_type TEXT NOT NULL DEFAULT '',
		labels TEXT NOT NULL DEFAULT '[]',
		UNIQUE (device_id, chatid)
	);

	CREATE TABLE network_numbers (
		phone TEXT PRIMARY KEY,
		on_network INTEGER NOT NULL,
		name TEXT
	);

	CREATE TABLE webhooks (
		id TEXT PRIMARY KEY,
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		url TEXT NOT NULL,
		events TEXT NOT NULL,
		exclude_messages TEXT NOT NULL DEFAULT '[]',
		enabled INTEGER NOT NULL DEFAULT 1,
		secret TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		UNIQUE (device_id, url)
	);

	CREATE TABLE outbox (
		id INTEGER PRIMARY KEY,
		webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
		event_id TEXT NOT NULL,
		body TEXT NOT NULL,
		state TEXT NOT NULL DEFAULT 'pending',
		attempts INTEGER NOT NULL DEFAULT 0,
		next_attempt_at INTEGER NOT NULL,
		last_status INTEGER,
		last_error TEXT,
		created_at INTEGER NOT NULL
	);
	CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE state = 'pending';
	`,
	// Most messages carry no tracking fields: indexing only those that do saves an index write per message.
	`
	DROP INDEX messages_device_track;
	CREATE INDEX messages_device_track ON messages(device_id, track_source, track_id)
		WHERE track_source IS NOT NULL OR track_id IS NOT NULL;
	`,
	// Site users: every user is also a site user with a WordPress role, signing in with application passwords.
	`
	ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'editor';
	ALTER TABLE users ADD COLUMN display_name TEXT;
	ALTER TABLE users ADD COLUMN email TEXT;
	UPDATE users SET role = 'administrator' WHERE name = 'admin';

	CREATE TABLE app_passwords (
		uuid TEXT PRIMARY KEY,
		user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		name TEXT NOT NULL,
		password_hash TEXT NOT NULL UNIQUE,
		created_at INTEGER NOT NULL,
		last_used INTEGER
	);
	CREATE INDEX app_passwords_user ON app_passwords(user_id);
	`,
];
