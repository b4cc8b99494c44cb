/** Rows as SQLite stores them (booleans as 0/1, JSON as text). Views for clients live beside the routes. */

export type SiteRole = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface UserRow {
	id: number;
	name: string;
	api_key_hash: string;
	created_at: number;
	role: SiteRole;
	display_name: string | null;
	email: string | null;
	/** WordPress's `user_nicename`, unique (the users repository makes it so). */
	slug: string;
	first_name: string;
	last_name: string;
	nickname: string;
	url: string;
	description: string;
	locale: string;
	/** The login password's scrypt digest (`salt:hash`, hex); null for a user that has none. */
	password_hash: string | null;
}

export interface AppPasswordRow {
	uuid: string;
	user_id: number;
	name: string;
	password_hash: string;
	created_at: number;
	last_used: number | null;
	app_id: string;
	last_ip: string | null;
}

export const DEVICE_STATUSES = ['disconnected', 'connecting', 'connected'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export interface DeviceRow {
	id: string;
	user_id: number;
	name: string;
	token_hash: string;
	status: DeviceStatus;
	phone: string | null;
	profile_name: string | null;
	is_business: number;
	created_at: number;
	last_disconnect: number | null;
	last_disconnect_reason: string | null;
	qr_code: string | null;
	pair_code: string | null;
	qr_expires_at: number | null;
}

export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'played' | 'failed' | 'deleted';

export interface MessageRow {
	id: string;
	device_id: string;
	messageid: string;
	chatid: string;
	sender: string;
	sender_name: string | null;
	from_me: number;
	is_group: number;
	message_type: string;
	text: string | null;
	timestamp: number;
	status: MessageStatus;
	quoted: string | null;
	mentions: string;
	forwarded: number;
	edited: number;
	reaction: string | null;
	/** JSON `[{sender, text, timestamp}]`, one entry per reactor, oldest first; `reaction` is the last one's text. */
	reactions: string;
	file_id: string | null;
	mimetype: string | null;
	file_name: string | null;
	content: string;
	track_source: string | null;
	track_id: string | null;
	was_sent_by_api: number;
	send_at: number | null;
	/** For queued messages: what the send queue still has to do, as JSON. */
	pending: string | null;
}

export interface ChatRow {
	id: string;
	device_id: string;
	chatid: string;
	name: string;
	is_group: number;
	pinned: number;
	archived: number;
	mute_end: number;
	unread: number;
	last_msg_ts: number;
	last_msg_type: string;
	labels: string;
}

export interface FileRow {
	id: string;
	mimetype: string;
	file_name: string;
	size: number;
	data: Buffer;
	created_at: number;
}

export interface WebhookRow {
	id: string;
	device_id: string;
	url: string;
	events: string;
	exclude_messages: string;
	enabled: number;
	secret: string;
	created_at: number;
	/** Only this chat's events (a JID), or every chat's when null. */
	chatid: string | null;
	/** No events after this (ms), and the subscription is deleted; null: no end. */
	expires_at: number | null;
}

export interface OutboxRow {
	id: number;
	webhook_id: string;
	event_id: string;
	body: string;
	state: 'pending' | 'delivered' | 'failed';
	attempts: number;
	next_attempt_at: number;
	last_status: number | null;
	last_error: string | null;
	created_at: number;
}

export interface LabelRow {
	device_id: string;
	id: number;
	name: string;
	color: number;
	deleted: number;
}

export interface ProxyRow {
	device_id: string;
	/** As configured, password included: only views with the password masked leave the server. */
	url: string;
	updated_at: number;
}

export interface ContactRow {
	device_id: string;
	jid: string;
	name: string;
	created_at: number;
	updated_at: number;
}

/** A group of the network: `group`, a `community`, or a community's `announcement` group. Booleans 0/1. */
export interface GroupRow {
	jid: string;
	kind: 'group' | 'community' | 'announcement';
	name: string;
	description: string;
	image_file_id: string | null;
	image_name: string | null;
	announce: number;
	locked: number;
	join_approval: number;
	invite_code: string;
	/** Phone number of the creator. */
	owner: string | null;
	/** JID of the community the group is linked to. */
	community: string | null;
	created_at: number;
}

export type GroupRole = 'member' | 'admin' | 'superadmin';

export interface GroupParticipantRow {
	group_jid: string;
	phone: string;
	role: GroupRole;
	added_at: number;
}

export interface GroupRequestRow {
	group_jid: string;
	phone: string;
	requested_at: number;
}

/** A site content item (post, page, revision, media), as WordPress's posts table keeps it. */
export interface ContentRow {
	id: number;
	/** `post`, `page`, `revision` (revisions and autosaves), `attachment` (media). */
	type: string;
	status: string;
	author: number;
	/** Page parent, revision's post, attachment's post; 0 for none. */
	parent: number;
	slug: string;
	title: string;
	content: string;
	excerpt: string;
	password: string;
	/** ms since the epoch, whole seconds. */
	date_gmt: number;
	/** 1 for a draft with no date of its own: its date follows each save until it is published. */
	date_floating: number;
	modified_gmt: number;
	comment_status: string;
	ping_status: string;
	format: string;
	sticky: number;
	template: string;
	menu_order: number;
	featured_media: number;
	mime_type: string;
	/** JSON object of the item's meta fields. */
	meta: string;
	/** While trashed: the status and slug it had before. */
	trashed_status: string | null;
	trashed_slug: string | null;
}

/** The stored file of a media item (a `content` row of type `attachment`). */
export interface AttachmentRow {
	content_id: number;
	file_id: string;
	alt_text: string;
	/** JSON object, WordPress's attachment metadata: `filesize`; for images `width`, `height`, `file`, `sizes`, `image_meta`. */
	details: string;
}

/** A category (`category`) or tag (`post_tag`). */
export interface TermRow {
	id: number;
	taxonomy: string;
	name: string;
	slug: string;
	description: string;
	parent: number;
}

/** A site comment (`comments`); `status` approved, hold, spam or trash. */
export interface CommentRow {
	id: number;
	post: number;
	parent: number;
	author: number;
	author_name: string;
	author_email: string;
	author_url: string;
	author_ip: string;
	author_user_agent: string;
	date_gmt: number;
	content: string;
	status: string;
	trashed_status: string | null;
	type: string;
	meta: string;
}
