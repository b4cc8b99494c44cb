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
}

export interface AppPasswordRow {
	uuid: string;
	user_id: number;
	name: string;
	password_hash: string;
	created_at: number;
	last_used: number | null;
}

export type DeviceStatus = 'disconnected' | 'connecting' | 'connected';

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
