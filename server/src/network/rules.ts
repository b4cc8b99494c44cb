import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Store } from '../store';
import type { NetworkDeviceRow, NetworkQuality, NetworkSettings, OptOutRow, RecipientOutcome } from '../store/network';
import type { DeviceRow } from '../store/types';
import { ApiError } from '../http/errors';
import type { Address } from './jid';

/**
 * The sandbox network's rules (docs/decisions/sandbox.md, "The sandbox network's rules"): what
 * a real network does to a sender, so that a workflow tried here behaves as it will with a real number.
 * Limits (a rate per second and minute, new conversations per rolling 24 hours in the WhatsApp Business
 * Platform's tiers), simulated contacts who are not on the network, block or report, a quality rating
 * that falls with blocks and reports and restricts the device, occasional disconnections of ordinary
 * accounts, and opt-outs. Every draw is a hash of the seed, so a run is reproducible.
 *
 * Each device's state is kept in memory once read (its settings, the conversations it opened, who blocked
 * it, who opted out); what must outlast a restart is written in the send's transaction. On the default
 * (business) path a send costs a few Map lookups, and one insert when it opens a conversation.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The quality score: from 100, it recovers 10 a day; below 30 the device is restricted, and comes back at 50. */
const FULL_SCORE = 100;
const RECOVERY_PER_DAY = 10;
const RESTRICT_BELOW = 30;
const SCORE_AFTER_RESTRICTION = 50;
const PENALTY: Record<RecipientOutcome, number> = { blocked: 2, reported: 5 };

/** An inbound text longer than this is no keyword: it is not trimmed and compared. */
const KEYWORD_MAX_LENGTH = 64;

/** Unique recipients per rolling 24 hours, as the WhatsApp Business Platform's messaging limit tiers. */
export const TIERS = [250, 1000, 10000, 100000, 'unlimited'] as const;
export type Tier = (typeof TIERS)[number];
export type Account = 'business' | 'ordinary';

/** What each account kind gets where neither the device nor the server's settings say otherwise. */
export const ACCOUNT_DEFAULTS: Record<Account, { tier: Tier; perSecond: number; perMinute: number; disconnectRate: number }> = {
	// High enough that bulk sends and the benchmarks run as on an ideal network (the Cloud API's own 80 msg/s is set per device).
	business: { tier: 100000, perSecond: 0, perMinute: 0, disconnectRate: 0 },
	ordinary: { tier: 250, perSecond: 1, perMinute: 20, disconnectRate: 0.002 },
};

/** A device's effective rules: its own settings, else the server's, else its account kind's. */
export interface Profile {
	account: Account;
	tier: Tier;
	perSecond: number;
	perMinute: number;
	notOnNetworkRate: number;
	blockRate: number;
	reportRate: number;
	disconnectRate: number;
	seed: number;
}

/** Why the network refused a send (the label of `wdm_network_refusals_total`, and a failed queued message's `content.refusal`). */
export const REFUSALS = ['rate', 'tier', 'restricted', 'opted_out', 'not_on_network', 'disconnected'] as const;
export type Refusal = (typeof REFUSALS)[number];

/** A send the network refused; `retryAt` (ms) when it may go later. */
export class NetworkRefusal extends ApiError {
	constructor(
		status: number,
		message: string,
		code: string,
		readonly reason: Refusal,
		readonly retryAt?: number,
	) {
		super(status, message, code);
		if (retryAt !== undefined) this.retryAfter = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
	}

	/** A pause (a rate, a lost connection): the async queue holds the message back instead of failing it. */
	get passes(): boolean {
		return this.reason === 'rate' || this.reason === 'disconnected';
	}
}

/** The quality of a device as stored, brought to `now`: a restriction that ended leaves the score at 50, which then recovers. */
export function qualityAt(q: NetworkQuality, now: number): NetworkQuality {
	let { score, score_at: at, restricted_until: until } = q;
	if (until !== null && until <= now) {
		score = SCORE_AFTER_RESTRICTION;
		at = until;
		until = null;
	}
	score = Math.min(FULL_SCORE, score + (RECOVERY_PER_DAY * Math.max(0, now - at)) / DAY_MS);
	return { score, score_at: now, restricted_until: until, blocks: q.blocks, reports: q.reports };
}

export const ratingOf = (score: number) => (score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low');

const FULL_QUALITY: NetworkQuality = { score: FULL_SCORE, score_at: 0, restricted_until: null, blocks: 0, reports: 0 };

/** A uniform draw in [0, 1) from the seed, what is drawn, the device's number and a key: the same inputs draw the same. */
function draw(seed: number, kind: string, phone: string, key: string): number {
	return crypto.hash('sha256', `${seed}\0${kind}\0${phone}\0${key}`, 'buffer').readUInt32BE(0) / 2 ** 32;
}

const iso = (ms: number) => new Date(ms).toISOString();
const keywords = (list: string) => new Set(list.split(',').map((k) => k.trim().toUpperCase()).filter(Boolean));

/** What the rules keep of one device in memory. */
class DeviceState {
	/** Send times, oldest first, as many as the larger rate needs (only while a rate applies). */
	sends: number[] = [];
	/** Until when the device is off the network (a drawn disconnection). */
	reconnectingUntil = 0;
	/** Sends drawn for a disconnection: the key of the next draw. */
	attempts = 0;
	/** When contacts last wrote to the device, those known to have (the customer service window). */
	wrote = new Map<string, number>();

	constructor(
		public profile: Profile,
		public quality: NetworkQuality,
		/** Recipient -> when the device opened its conversation, oldest first (the tier's window). */
		readonly conversations: Map<string, number>,
		readonly outcomes: Map<string, RecipientOutcome>,
		readonly optOuts: Map<string, OptOutRow>,
	) {}
}

/** What a send the rules admitted still records once it goes out (`NetworkRules.count`). */
export interface Permit {
	state: DeviceState;
	phone?: string;
	/** The send opens a conversation: it counts towards the tier. */
	opens: boolean;
	/** The recipient blocks (or reports) the device once this first message reaches them. */
	outcome?: RecipientOutcome;
	/** The recipient blocked the device: the message is never delivered. */
	blocked: boolean;
}

/** A device's network as the sandbox and the status route show it. */
export interface NetworkView extends Profile {
	quality: { rating: 'high' | 'medium' | 'low'; score: number; blocks: number; reports: number };
	restrictedUntil: number | null;
	reconnectingUntil: number | null;
	uniqueRecipients24h: number;
	optOuts: number;
	rules: 'on' | 'off';
}

/** The PUT of a device's network: each field its own value, or null for the server's default. */
export type NetworkChanges = { [K in Exclude<keyof Profile, 'account'>]?: Profile[K] | null } & { account?: Account | null };

const COLUMNS: Record<Exclude<keyof Profile, 'account'>, keyof NetworkSettings> = {
	tier: 'tier',
	perSecond: 'per_second',
	perMinute: 'per_minute',
	notOnNetworkRate: 'not_on_network_rate',
	blockRate: 'block_rate',
	reportRate: 'report_rate',
	disconnectRate: 'disconnect_rate',
	seed: 'seed',
};

export class NetworkRules {
	private states = new Map<string, DeviceState>();
	private readonly off: boolean;
	private readonly optOutWords: Set<string>;
	private readonly optInWords: Set<string>;
	/** Refusals since the server started, by reason (`wdm_network_refusals_total`). */
	readonly refusals = Object.fromEntries(REFUSALS.map((r) => [r, 0])) as Record<Refusal, number>;

	constructor(
		private store: Store,
		private config: Config,
	) {
		this.off = config.networkRules === 'off';
		this.optOutWords = keywords(config.optOutKeywords);
		this.optInWords = keywords(config.optInKeywords);
	}

	/** Drops the conversations out of every tier's window (they are read back at start). */
	start() {
		this.store.network.pruneConversations(Date.now() - DAY_MS);
	}

	/** Drops what is kept in memory of a deleted device (its rows go with it by cascade). */
	forget(deviceId: string) {
		this.states.delete(deviceId);
	}

	/** The account kind a new device gets. */
	get newDeviceIsBusiness(): number {
		return this.config.networkAccount === 'business' ? 1 : 0;
	}

	/**
	 * Throws the network's refusal of a send from `device` to `to` now, before anything is written; else
	 * what the send records once it goes out (undefined: nothing, the default path).
	 */
	admit(device: DeviceRow, to: Address): Permit | undefined {
		if (this.off) return undefined;
		const now = Date.now();
		const state = this.stateOf(device);
		const p = state.profile;
		if (state.reconnectingUntil > now) throw this.disconnected(device, state, now);
		const rated = p.perSecond > 0 || p.perMinute > 0;
		if (rated) this.checkRate(device, state, now);
		const phone = to.phone;
		let opens = false;
		let outcome: RecipientOutcome | undefined;
		let blocked = false;
		// The rules about recipients hold for conversations: groups and the status feed are not one.
		if (phone) {
			this.checkOptOut(device, state, phone);
			const until = state.quality.restricted_until;
			if (until !== null && until > now && !this.wroteWithin(device, state, to, now)) throw this.restricted(device, state, until, now);
			// Draws are for simulated contacts; a device of this server is a real account.
			const contact = (p.notOnNetworkRate > 0 || p.blockRate > 0 || p.reportRate > 0) && !this.store.devices.connectedByPhone(phone);
			if (contact) this.checkOnNetwork(device, state, phone);
			opens = this.opens(device, state, to, now);
			if (opens && p.tier !== 'unlimited' && this.openConversations(state, now) >= p.tier) throw this.tierReached(device, state, phone, now);
			blocked = state.outcomes.has(phone);
			if (contact && !blocked) {
				if (draw(p.seed, 'report', device.phone!, phone) < p.reportRate) outcome = 'reported';
				else if (draw(p.seed, 'block', device.phone!, phone) < p.blockRate) outcome = 'blocked';
			}
		}
		// The connection drops as the message goes: that send is refused too.
		if (p.disconnectRate > 0 && draw(p.seed, 'disconnect', device.phone!, String(state.attempts++)) < p.disconnectRate) {
			state.reconnectingUntil = now + this.config.networkReconnectMs;
			throw this.disconnected(device, state, now);
		}
		return rated || opens || outcome || blocked ? { state, phone, opens, outcome, blocked } : undefined;
	}

	/** The refusals a queued send meets at once (its recipient opted out, or is not on the network); the others wait for its time. */
	screen(device: DeviceRow, to: Address) {
		if (this.off || !to.phone) return;
		const state = this.stateOf(device);
		this.checkOptOut(device, state, to.phone);
		if (state.profile.notOnNetworkRate > 0 && !this.store.devices.connectedByPhone(to.phone)) this.checkOnNetwork(device, state, to.phone);
	}

	/** Records a send `admit` let through, in the send's transaction. */
	count(device: DeviceRow, permit: Permit | undefined) {
		if (!permit) return;
		const { state, phone } = permit;
		const now = Date.now();
		const p = state.profile;
		if (p.perSecond > 0 || p.perMinute > 0) {
			state.sends.push(now);
			const keep = Math.max(p.perSecond, p.perMinute);
			if (state.sends.length > 2 * keep) state.sends.splice(0, state.sends.length - keep);
		}
		if (permit.opens && phone) {
			// Re-inserted: the map stays in the order conversations were opened.
			state.conversations.delete(phone);
			state.conversations.set(phone, now);
			this.store.network.openConversation(device.id, phone, now);
		}
		if (permit.outcome && phone) {
			state.outcomes.set(phone, permit.outcome);
			this.store.network.recordOutcome(device.id, phone, permit.outcome, now);
			this.penalize(device, state, permit.outcome, now);
		}
	}

	/** The pace of the device's sends (ms between two), for the async queue: 0 when no rate applies. */
	spacing(device: DeviceRow): number {
		const { perSecond, perMinute } = this.stateOf(device).profile;
		return Math.max(perSecond ? 1000 / perSecond : 0, perMinute ? 60000 / perMinute : 0);
	}

	/**
	 * A contact wrote to the device (in the receiving transaction): its customer service window opens, and
	 * a whole text that is an opt-out keyword records the opt-out (an opt-in keyword clears it).
	 */
	received(device: DeviceRow, from: string, text: string | null | undefined) {
		if (this.off) return;
		const now = Date.now();
		this.states.get(device.id)?.wrote.set(from, now);
		if (!text || text.length > KEYWORD_MAX_LENGTH) return;
		const word = text.trim();
		if (this.optOutWords.has(word.toUpperCase())) this.optOut(device, { phone: from, keyword: word, at: now });
		else if (this.optInWords.has(word.toUpperCase())) this.optIn(device, from);
	}

	/** Who opted out of the device's messages, in the order they did. */
	optOuts(device: DeviceRow): OptOutRow[] {
		return [...this.stateOf(device).optOuts.values()].sort((a, b) => a.at - b.at || a.phone.localeCompare(b.phone));
	}

	/** Records an opt-out (a contact's keyword, or the owner's record with a null keyword). */
	optOut(device: DeviceRow, row: OptOutRow): OptOutRow {
		this.store.network.optOut(device.id, row);
		this.stateOf(device).optOuts.set(row.phone, row);
		return row;
	}

	/** Clears an opt-out; false when the number had not opted out. */
	optIn(device: DeviceRow, phone: string): boolean {
		const cleared = this.store.network.optIn(device.id, phone);
		this.stateOf(device).optOuts.delete(phone);
		return cleared;
	}

	/** Changes the device's own settings (null: back to the server's default); answers its network. */
	configure(device: DeviceRow, changes: NetworkChanges): NetworkView {
		const updated = this.store.tx(() => {
			const settings: Partial<NetworkSettings> = {};
			for (const [field, column] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, keyof NetworkSettings][]) {
				const value = changes[field];
				// The tier is kept as text: a number or `unlimited`.
				if (value !== undefined) (settings as Record<string, unknown>)[column] = value === null || field !== 'tier' ? value : String(value);
			}
			if (Object.keys(settings).length) this.store.network.save(device.id, settings);
			if (changes.account === undefined) return device;
			const account = changes.account ?? this.config.networkAccount;
			return this.store.devices.update(device.id, { is_business: account === 'business' ? 1 : 0 });
		});
		const state = this.states.get(device.id);
		if (state) state.profile = this.profileOf(updated, this.store.network.device(device.id));
		return this.view(updated);
	}

	/** The device's network: its effective rules and their state now. */
	view(device: DeviceRow): NetworkView {
		const now = Date.now();
		const state = this.stateOf(device);
		const q = qualityAt(state.quality, now);
		return {
			...state.profile,
			quality: { rating: ratingOf(q.score), score: Math.round(q.score), blocks: q.blocks, reports: q.reports },
			restrictedUntil: q.restricted_until,
			reconnectingUntil: state.reconnectingUntil > now ? state.reconnectingUntil : null,
			uniqueRecipients24h: this.openConversations(state, now),
			optOuts: state.optOuts.size,
			rules: this.config.networkRules,
		};
	}

	/** The effective rules of a device with this stored row. */
	profileOf(device: DeviceRow, row: NetworkDeviceRow | undefined): Profile {
		const account: Account = device.is_business ? 'business' : 'ordinary';
		const base = ACCOUNT_DEFAULTS[account];
		const c = this.config;
		const tier = row?.tier ?? c.networkTier;
		return {
			account,
			tier: tier === undefined ? base.tier : tier === 'unlimited' ? 'unlimited' : (Number(tier) as Tier),
			perSecond: row?.per_second ?? c.networkPerSecond ?? base.perSecond,
			perMinute: row?.per_minute ?? c.networkPerMinute ?? base.perMinute,
			notOnNetworkRate: row?.not_on_network_rate ?? c.networkNotOnNetworkRate,
			blockRate: row?.block_rate ?? c.networkBlockRate,
			reportRate: row?.report_rate ?? c.networkReportRate,
			disconnectRate: row?.disconnect_rate ?? c.networkDisconnectRate ?? base.disconnectRate,
			seed: row?.seed ?? c.networkSeed,
		};
	}

	private stateOf(device: DeviceRow): DeviceState {
		let state = this.states.get(device.id);
		if (!state) {
			const { network } = this.store;
			const row = network.device(device.id);
			const since = Date.now() - DAY_MS;
			state = new DeviceState(
				this.profileOf(device, row),
				row ?? FULL_QUALITY,
				new Map(network.conversations(device.id, since).map((c) => [c.phone, c.opened_at])),
				new Map(network.outcomes(device.id).map((o) => [o.phone, o.outcome])),
				new Map(network.optOuts(device.id).map((o) => [o.phone, o])),
			);
			this.states.set(device.id, state);
		} else if ((device.is_business === 1) !== (state.profile.account === 'business')) {
			state.profile = this.profileOf(device, this.store.network.device(device.id));
		}
		return state;
	}

	/** Conversations opened in the last 24 hours (older ones leave the map, oldest first). */
	private openConversations(state: DeviceState, now: number): number {
		for (const [phone, at] of state.conversations) {
			if (at > now - DAY_MS) break;
			state.conversations.delete(phone);
		}
		return state.conversations.size;
	}

	/** Whether a send to `to` opens a conversation: none opened in the last 24 hours, and the contact did not write in them. */
	private opens(device: DeviceRow, state: DeviceState, to: Address, now: number): boolean {
		const opened = state.conversations.get(to.phone!);
		return !(opened !== undefined && opened > now - DAY_MS) && !this.wroteWithin(device, state, to, now);
	}

	/** Whether the contact wrote to the device in the last 24 hours (the customer service window). */
	private wroteWithin(device: DeviceRow, state: DeviceState, to: Address, now: number): boolean {
		const known = state.wrote.get(to.phone!);
		if (known !== undefined) return known > now - DAY_MS;
		// Read from the messages until the contact is known to have written; what arrives later is recorded by
		// `received`. Asked only for a recipient with no conversation open, or while the device is restricted.
		const at = this.store.messages.lastInboundSince(device.id, to.jid, now - DAY_MS);
		if (at !== undefined) state.wrote.set(to.phone!, at);
		return at !== undefined;
	}

	private checkRate(device: DeviceRow, state: DeviceState, now: number) {
		const { perSecond, perMinute, account } = state.profile;
		const { sends } = state;
		// The n-th latest send is within the window: one more would make n + 1.
		const minute = perMinute > 0 && sends.length >= perMinute ? sends[sends.length - perMinute] + 60000 : 0;
		const second = perSecond > 0 && sends.length >= perSecond ? sends[sends.length - perSecond] + 1000 : 0;
		const retryAt = Math.max(minute, second);
		if (retryAt <= now) return;
		const [limit, unit] = minute >= second ? [perMinute, 'minute'] : [perSecond, 'second'];
		const wait = Math.max(1, Math.ceil((retryAt - now) / 1000));
		throw this.refuse(
			new NetworkRefusal(429, `device '${device.name}' is past its limit of ${limit} messages per ${unit} (${account} account); retry after ${wait} s`, 'wdm_rate_limited', 'rate', retryAt),
		);
	}

	private checkOptOut(device: DeviceRow, state: DeviceState, phone: string) {
		const optOut = state.optOuts.get(phone);
		if (!optOut) return;
		const how = optOut.keyword === null ? `recorded by the device's owner at ${iso(optOut.at)}` : `sent "${optOut.keyword}" at ${iso(optOut.at)}`;
		const [optIn] = this.optInWords;
		const again = optIn ? `they opt in again by sending ${optIn}, or the owner clears it` : 'the owner clears it';
		throw this.refuse(
			new NetworkRefusal(
				422,
				`${phone} opted out of messages from device '${device.name}' (${how}); ${again} with DELETE /sandbox/v1/devices/${device.name}/network/opt-outs/${phone}`,
				'wdm_opted_out',
				'opted_out',
			),
		);
	}

	private checkOnNetwork(device: DeviceRow, state: DeviceState, phone: string) {
		if (draw(state.profile.seed, 'absent', device.phone!, phone) < state.profile.notOnNetworkRate) {
			throw this.refuse(new NetworkRefusal(500, `${phone} is not on the network`, 'wdm_network_error', 'not_on_network'));
		}
	}

	private tierReached(device: DeviceRow, state: DeviceState, phone: string, now: number): NetworkRefusal {
		const [oldest] = state.conversations.values();
		const retryAt = oldest + DAY_MS;
		const { tier, account } = state.profile;
		return this.refuse(
			new NetworkRefusal(
				429,
				`device '${device.name}' reached its messaging limit of ${tier} unique recipients in a rolling 24 hours (tier ${tier}, ${account} account): ${phone} would open one more conversation; retry after ${iso(retryAt)}, when the oldest leaves the window (contacts who wrote to the device in the last 24 hours can still be answered)`,
				'wdm_tier_limit',
				'tier',
				Math.max(retryAt, now + 1),
			),
		);
	}

	private restricted(device: DeviceRow, state: DeviceState, until: number, now: number): NetworkRefusal {
		const q = qualityAt(state.quality, now);
		return this.refuse(
			new NetworkRefusal(
				429,
				`device '${device.name}' is restricted until ${iso(until)}: its quality rating fell to ${ratingOf(q.score)} (score ${Math.round(q.score)}; ${q.blocks} contacts blocked it, ${q.reports} reported it); until then it may only answer contacts who wrote to it in the last 24 hours`,
				'wdm_restricted',
				'restricted',
				until,
			),
		);
	}

	private disconnected(device: DeviceRow, state: DeviceState, now: number): NetworkRefusal {
		const until = state.reconnectingUntil;
		return this.refuse(
			new NetworkRefusal(
				503,
				`device '${device.name}' lost its connection to the network (${state.profile.account} account); it is back at ${iso(until)}, retry after ${Math.max(1, Math.ceil((until - now) / 1000))} s`,
				'wdm_disconnected',
				'disconnected',
				Math.max(until, now + 1),
			),
		);
	}

	private refuse(refusal: NetworkRefusal): NetworkRefusal {
		this.refusals[refusal.reason]++;
		return refusal;
	}

	/** A contact blocked or reported the device: its score falls, and below the threshold the device is restricted. */
	private penalize(device: DeviceRow, state: DeviceState, outcome: RecipientOutcome, now: number) {
		const q = qualityAt(state.quality, now);
		const score = Math.max(0, q.score - PENALTY[outcome]);
		state.quality = {
			score,
			score_at: now,
			restricted_until: q.restricted_until ?? (score < RESTRICT_BELOW ? now + this.config.networkRestrictionMs : null),
			blocks: q.blocks + (outcome === 'blocked' ? 1 : 0),
			reports: q.reports + (outcome === 'reported' ? 1 : 0),
		};
		this.store.network.save(device.id, state.quality);
	}
}
