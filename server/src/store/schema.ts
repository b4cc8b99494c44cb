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
	// Message actions: every reaction on a message, one per reactor (`reaction` keeps the newest one's emoji).
	`
	ALTER TABLE messages ADD COLUMN reactions TEXT NOT NULL DEFAULT '[]';
	`,
	// Labels and proxy: each device's labels (a new device, and every device already stored, starts with
	// the business labels of label_defaults, copied by a trigger in the transaction that creates the
	// device) and the proxy a device connects through.
	`
	CREATE TABLE label_defaults (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color INTEGER NOT NULL);
	INSERT INTO label_defaults (id, name, color) VALUES
		(1, 'New customer', 1), (2, 'New order', 2), (3, 'Pending payment', 16), (4, 'Paid', 15), (5, 'Order complete', 3);

	CREATE TABLE labels (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		id INTEGER NOT NULL,
		name TEXT NOT NULL,
		color INTEGER NOT NULL,
		deleted INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (device_id, id)
	) WITHOUT ROWID;
	CREATE UNIQUE INDEX labels_name ON labels(device_id, name COLLATE NOCASE) WHERE deleted = 0;

	INSERT INTO labels (device_id, id, name, color) SELECT devices.id, d.id, d.name, d.color FROM devices, label_defaults d;
	CREATE TRIGGER devices_default_labels AFTER INSERT ON devices BEGIN
		INSERT INTO labels (device_id, id, name, color) SELECT NEW.id, id, name, color FROM label_defaults;
	END;

	CREATE TABLE proxies (
		device_id TEXT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
		url TEXT NOT NULL,
		updated_at INTEGER NOT NULL
	);
	`,
	// Contacts and checks: the contacts saved on each device (its address book), by JID.
	`
	CREATE TABLE contacts (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		jid TEXT NOT NULL,
		name TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (device_id, jid)
	) WITHOUT ROWID;
	`,
	// Groups and communities: they belong to the network, not to a device; participants are phone numbers.
	// A community is a group of kind 'community'; its groups (and its 'announcement' group) point to it.
	`
	CREATE TABLE network_groups (
		jid TEXT PRIMARY KEY,
		kind TEXT NOT NULL DEFAULT 'group',
		name TEXT NOT NULL,
		description TEXT NOT NULL DEFAULT '',
		image_file_id TEXT REFERENCES files(id) ON DELETE SET NULL,
		image_name TEXT,
		announce INTEGER NOT NULL DEFAULT 0,
		locked INTEGER NOT NULL DEFAULT 0,
		join_approval INTEGER NOT NULL DEFAULT 0,
		invite_code TEXT NOT NULL UNIQUE,
		owner TEXT,
		community TEXT REFERENCES network_groups(jid) ON DELETE SET NULL,
		created_at INTEGER NOT NULL
	);
	CREATE INDEX network_groups_community ON network_groups(community) WHERE community IS NOT NULL;

	CREATE TABLE network_group_participants (
		group_jid TEXT NOT NULL REFERENCES network_groups(jid) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		role TEXT NOT NULL DEFAULT 'member',
		added_at INTEGER NOT NULL,
		PRIMARY KEY (group_jid, phone)
	);
	CREATE INDEX network_group_participants_phone ON network_group_participants(phone);

	CREATE TABLE network_group_requests (
		group_jid TEXT NOT NULL REFERENCES network_groups(jid) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		requested_at INTEGER NOT NULL,
		PRIMARY KEY (group_jid, phone)
	) WITHOUT ROWID;
	`,
	// Site posts and pages: one content table for every post type (posts, pages, their revisions and
	// autosaves, and media), as WordPress's posts table; categories and tags in a terms table, with
	// "Uncategorized" (id 1) as the default category. Dates are ms since the epoch (GMT), whole seconds.
	`
	CREATE TABLE content (
		id INTEGER PRIMARY KEY,
		type TEXT NOT NULL,
		status TEXT NOT NULL,
		author INTEGER NOT NULL DEFAULT 0,
		parent INTEGER NOT NULL DEFAULT 0,
		slug TEXT NOT NULL DEFAULT '',
		title TEXT NOT NULL DEFAULT '',
		content TEXT NOT NULL DEFAULT '',
		excerpt TEXT NOT NULL DEFAULT '',
		password TEXT NOT NULL DEFAULT '',
		date_gmt INTEGER NOT NULL,
		date_floating INTEGER NOT NULL DEFAULT 0,
		modified_gmt INTEGER NOT NULL,
		comment_status TEXT NOT NULL DEFAULT 'open',
		ping_status TEXT NOT NULL DEFAULT 'open',
		format TEXT NOT NULL DEFAULT 'standard',
		sticky INTEGER NOT NULL DEFAULT 0,
		template TEXT NOT NULL DEFAULT '',
		menu_order INTEGER NOT NULL DEFAULT 0,
		featured_media INTEGER NOT NULL DEFAULT 0,
		mime_type TEXT NOT NULL DEFAULT '',
		meta TEXT NOT NULL DEFAULT '{}',
		trashed_status TEXT,
		trashed_slug TEXT
	);
	CREATE INDEX content_type_date ON content(type, status, date_gmt);
	CREATE INDEX content_parent ON content(parent, type);
	CREATE INDEX content_slug ON content(slug, type);

	CREATE TABLE terms (
		id INTEGER PRIMARY KEY,
		taxonomy TEXT NOT NULL,
		name TEXT NOT NULL,
		slug TEXT NOT NULL,
		description TEXT NOT NULL DEFAULT '',
		parent INTEGER NOT NULL DEFAULT 0,
		UNIQUE (taxonomy, slug)
	);
	INSERT INTO terms (id, taxonomy, name, slug) VALUES (1, 'category', 'Uncategorized', 'uncategorized');

	CREATE TABLE content_terms (
		content_id INTEGER NOT NULL REFERENCES content(id) ON DELETE CASCADE,
		term_id INTEGER NOT NULL REFERENCES terms(id) ON DELETE CASCADE,
		PRIMARY KEY (content_id, term_id)
	) WITHOUT ROWID;
	CREATE INDEX content_terms_term ON content_terms(term_id);
	`,
	// Site media: an attachment is a `content` item of type `attachment`; this is its stored file, alt text
	// and details (WordPress's `_wp_attached_file`, `_wp_attachment_image_alt`, `_wp_attachment_metadata`).
	// The file goes with the attachment, whoever deletes it.
	`
	CREATE TABLE attachments (
		content_id INTEGER PRIMARY KEY REFERENCES content(id) ON DELETE CASCADE,
		file_id TEXT NOT NULL REFERENCES files(id),
		alt_text TEXT NOT NULL DEFAULT '',
		details TEXT NOT NULL DEFAULT '{}'
	);
	CREATE TRIGGER attachments_file_gone AFTER DELETE ON attachments BEGIN
		DELETE FROM files WHERE id = OLD.file_id;
	END;
	`,
	// The extension namespaces' state (engine, theme core, builder, builder connection, AI proxy): JSON
	// objects by namespace, kind and key (store/objects.ts).
	`
	CREATE TABLE site_objects (
		namespace TEXT NOT NULL,
		kind TEXT NOT NULL,
		key TEXT NOT NULL,
		data TEXT NOT NULL,
		position INTEGER PRIMARY KEY AUTOINCREMENT,
		created_at INTEGER NOT NULL,
		modified_at INTEGER NOT NULL,
		UNIQUE (namespace, kind, key)
	);
	`,
	// Reads that stay flat as the store grows. A partial index is usable only when the query's WHERE implies
	// the index's, and an OR (the tracking index's) is implied by no lookup: one index per tracking field,
	// each implied by \`field = ?\`. The receipts scan at start-up reads only the messages awaiting one.
	`
	DROP INDEX messages_device_track;
	CREATE INDEX messages_device_track_id ON messages(device_id, track_id, timestamp) WHERE track_id IS NOT NULL;
	CREATE INDEX messages_device_track_source ON messages(device_id, track_source, timestamp) WHERE track_source IS NOT NULL;
	CREATE INDEX messages_awaiting_receipt ON messages(timestamp) WHERE from_me = 1 AND status = 'sent';
	CREATE INDEX outbox_webhook ON outbox(webhook_id);
	`,
	// Subscriptions for one chat and for a limited time (WDM Send and Wait for Reply): a chat's events only,
	// none after `expires_at` (ms), when the subscription is deleted.
	`
	ALTER TABLE webhooks ADD COLUMN chatid TEXT;
	ALTER TABLE webhooks ADD COLUMN expires_at INTEGER;
	`,
	// Reads that stay flat, continued (issue 16): a subscription's waiting rows (the pull-forward after a
	// receiver comes back) without walking its delivered history, a page of a device's contacts in name
	// order without sorting all of them, and the scheduled posts due (checked on every write) without
	// reading every post.
	`
	CREATE INDEX outbox_webhook_pending ON outbox(webhook_id, id) WHERE state = 'pending';
	CREATE INDEX contacts_device_name ON contacts(device_id, name COLLATE NOCASE, jid);
	CREATE INDEX content_scheduled ON content(date_gmt) WHERE status = 'future';
	`,
	// Device names are unique per user, not on the server: two users may each have a \`shop\`. SQLite drops a
	// UNIQUE constraint only by rebuilding the table (run with foreign keys off, see openDb).
	`
	CREATE TABLE devices_by_user (
		id TEXT PRIMARY KEY,
		user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		name TEXT NOT NULL,
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
		qr_expires_at INTEGER,
		UNIQUE (user_id, name)
	);
	INSERT INTO devices_by_user SELECT id, user_id, name, token_hash, status, phone, profile_name, is_business, created_at,
		last_disconnect, last_disconnect_reason, qr_code, pair_code, qr_expires_at FROM devices;
	DROP TABLE devices;
	ALTER TABLE devices_by_user RENAME TO devices;
	CREATE INDEX devices_phone ON devices(phone);
	CREATE TRIGGER devices_default_labels AFTER INSERT ON devices BEGIN
		INSERT INTO labels (device_id, id, name, color) SELECT NEW.id, id, name, color FROM label_defaults;
	END;
	`,
	// Site comments (WordPress's comments table): on a content item, which takes them along when it is
	// deleted for good; `status` approved, hold, spam or trash (`trashed_status` what it was before the
	// trash). Indexed for the list's filters: by post, parent, author and status in date order.
	`
	CREATE TABLE comments (
		id INTEGER PRIMARY KEY,
		post INTEGER NOT NULL REFERENCES content(id) ON DELETE CASCADE,
		parent INTEGER NOT NULL DEFAULT 0,
		author INTEGER NOT NULL DEFAULT 0,
		author_name TEXT NOT NULL DEFAULT '',
		author_email TEXT NOT NULL DEFAULT '',
		author_url TEXT NOT NULL DEFAULT '',
		author_ip TEXT NOT NULL DEFAULT '',
		author_user_agent TEXT NOT NULL DEFAULT '',
		date_gmt INTEGER NOT NULL,
		content TEXT NOT NULL DEFAULT '',
		status TEXT NOT NULL DEFAULT 'hold',
		trashed_status TEXT,
		type TEXT NOT NULL DEFAULT 'comment',
		meta TEXT NOT NULL DEFAULT '{}'
	);
	CREATE INDEX comments_post ON comments(post, status, date_gmt);
	CREATE INDEX comments_parent ON comments(parent);
	CREATE INDEX comments_author ON comments(author, date_gmt);
	CREATE INDEX comments_status_date ON comments(status, date_gmt);
	`,
	// Site users as WordPress's users (issue 25): the profile fields of the users controller (slugs are
	// kept unique by the users repository, not by an index: logins that differ only in case, "Bob" and
	// "bob", get "bob" and "bob-<id>" here, and no old store can fail this migration), a login
	// password (scrypt; never accepted for Basic, as WordPress's REST API takes application passwords only),
	// and what WordPress keeps of each application password (app_id, the last IP that used it).
	`
	ALTER TABLE users ADD COLUMN slug TEXT;
	ALTER TABLE users ADD COLUMN first_name TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN last_name TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN nickname TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN url TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN description TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT '';
	ALTER TABLE users ADD COLUMN password_hash TEXT;
	UPDATE users SET slug = replace(lower(name), '.', '-'), nickname = name;
	UPDATE users SET slug = slug || '-' || id WHERE EXISTS (SELECT 1 FROM users o WHERE o.slug = users.slug AND o.id < users.id);
	CREATE INDEX users_slug ON users(slug);
	CREATE INDEX users_email ON users(email COLLATE NOCASE);
	ALTER TABLE app_passwords ADD COLUMN app_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE app_passwords ADD COLUMN last_ip TEXT;
	CREATE INDEX content_author ON content(author, type, status);
	`,
	// A shared sandbox (docs/decisions/sandbox.md, "A shared sandbox: numbers have owners"): what the sandbox says
	// about a number holds in the caller's world only (what was said before holds for every existing user),
	// and `number_worlds` records whose world each number is in: the numbers devices paired with, and the
	// contacts they talked to (read back here from the direct chats already stored).
	`
	CREATE TABLE network_numbers_by_user (
		user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		on_network INTEGER NOT NULL DEFAULT 1,
		name TEXT,
		PRIMARY KEY (user_id, phone)
	);
	INSERT INTO network_numbers_by_user SELECT users.id, n.phone, n.on_network, n.name FROM users, network_numbers n;
	DROP TABLE network_numbers;
	ALTER TABLE network_numbers_by_user RENAME TO network_numbers;

	CREATE TABLE number_worlds (
		phone TEXT NOT NULL,
		user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		device INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (phone, user_id)
	);
	INSERT OR IGNORE INTO number_worlds SELECT phone, user_id, 1 FROM devices WHERE phone IS NOT NULL;
	INSERT OR IGNORE INTO number_worlds
		SELECT DISTINCT substr(m.chatid, 1, instr(m.chatid, '@') - 1), d.user_id, 0
		FROM messages m JOIN devices d ON d.id = m.device_id
		WHERE m.is_group = 0 AND m.chatid LIKE '%@s.whatsapp.net'
		AND NOT EXISTS (SELECT 1 FROM devices o WHERE o.phone = substr(m.chatid, 1, instr(m.chatid, '@') - 1));
	`,
	// The resized copies of a site image (WordPress's intermediate sizes: thumbnail, medium, ...), each a
	// stored file served beside the original (found by the original's file id); they go with the
	// attachment, whoever deletes it.
	`
	CREATE INDEX attachments_file ON attachments(file_id);
	CREATE TABLE attachment_sizes (
		content_id INTEGER NOT NULL REFERENCES attachments(content_id) ON DELETE CASCADE,
		name TEXT NOT NULL,
		file_id TEXT NOT NULL REFERENCES files(id),
		PRIMARY KEY (content_id, name)
	) WITHOUT ROWID;
	CREATE INDEX attachment_sizes_file ON attachment_sizes(file_id);
	CREATE TRIGGER attachment_sizes_file_gone AFTER DELETE ON attachment_sizes BEGIN
		DELETE FROM files WHERE id = OLD.file_id AND NOT EXISTS (SELECT 1 FROM attachment_sizes WHERE file_id = OLD.file_id);
	END;
	`,
	// A device's and a chat's messages by time in ascending order (issue 29): a new message then lands at
	// the right edge of the index, where SQLite appends a page, instead of the left edge of its device's
	// range (timestamp DESC), where every full page is split and rebalanced with its siblings: about 4
	// pages of each index written per commit of ten sends instead of 1. Read backwards, the ascending
	// index also gives `ORDER BY timestamp DESC, rowid DESC` whole, without the sort of the last term.
	`
	DROP INDEX messages_device_time;
	DROP INDEX messages_device_chat;
	CREATE INDEX messages_device_time ON messages(device_id, timestamp);
	CREATE INDEX messages_device_chat ON messages(device_id, chatid, timestamp);
	`,
	// Idempotency keys of sends (issue 28: a run that dies after its send and runs again must not send
	// twice): the key a device's send was made with, the request it was made for, and the message it made.
	// Written in the send's own transaction, so a key and its message land together or not at all.
	`
	CREATE TABLE send_keys (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		key TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
		created_at INTEGER NOT NULL,
		replays INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (device_id, key)
	) WITHOUT ROWID;
	CREATE INDEX send_keys_message ON send_keys(message_id);
	CREATE INDEX send_keys_created ON send_keys(created_at);
	`,
	// Claims of delivered events by their receivers (issue 28: one run per event), kept in the store so
	// that a restart of the server keeps them: per subscription and event, the attempt whose run claimed
	// it and the latest attempt that failed (webhooks/claims.ts).
	`
	CREATE TABLE webhook_claims (
		webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
		event_id TEXT NOT NULL,
		claim_ts INTEGER,
		release_on_failure INTEGER NOT NULL DEFAULT 0,
		failed_ts INTEGER,
		at INTEGER NOT NULL,
		PRIMARY KEY (webhook_id, event_id)
	) WITHOUT ROWID;
	CREATE INDEX webhook_claims_at ON webhook_claims(at);
	`,
	// The sandbox network's rules (issue 38, network/rules.ts): a device's own settings (NULL: the server's
	// default; its account kind is `devices.is_business`) and quality; the conversations it opened (the
	// tier's rolling 24 hours); the simulated contacts who blocked or reported it; who opted out of its messages.
	`
	CREATE TABLE network_devices (
		device_id TEXT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
		tier TEXT,
		per_second INTEGER,
		per_minute INTEGER,
		not_on_network_rate REAL,
		block_rate REAL,
		report_rate REAL,
		disconnect_rate REAL,
		seed INTEGER,
		score REAL NOT NULL DEFAULT 100,
		score_at INTEGER NOT NULL DEFAULT 0,
		restricted_until INTEGER,
		blocks INTEGER NOT NULL DEFAULT 0,
		reports INTEGER NOT NULL DEFAULT 0
	) WITHOUT ROWID;
	CREATE TABLE network_conversations (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		opened_at INTEGER NOT NULL,
		PRIMARY KEY (device_id, phone)
	) WITHOUT ROWID;
	CREATE INDEX network_conversations_opened ON network_conversations(opened_at);
	CREATE TABLE network_recipients (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		outcome TEXT NOT NULL,
		at INTEGER NOT NULL,
		PRIMARY KEY (device_id, phone)
	) WITHOUT ROWID;
	CREATE TABLE opt_outs (
		device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
		phone TEXT NOT NULL,
		keyword TEXT,
		at INTEGER NOT NULL,
		PRIMARY KEY (device_id, phone)
	) WITHOUT ROWID;
	`,
];
