import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { Store } from './store';
import { Events } from './webhooks/events';
import { WebhookDelivery } from './webhooks/delivery';
import { Pairing } from './network/pairing';
import { Presence } from './network/presence';
import { Messaging } from './network/messaging';
import { NetworkRules } from './network/rules';
import { Groups } from './network/groups';
import { SendQueue } from './network/send-queue';
import { Outbound, type Resolver } from './outbound/fetch';
import { privateFetchPolicy, type PrivateFetchPolicy } from './outbound/policy';
import type { MediaLimits } from './media/load';
import { loadTokenKey } from './bootstrap';

/** What a server is built with besides its settings (tests map host names without DNS). */
export interface ServiceOptions {
	resolve?: Resolver;
}

/** Everything a route handler may use, built once per server. */
export class Services {
	readonly store: Store;
	readonly events: Events;
	readonly delivery: WebhookDelivery;
	readonly pairing: Pairing;
	readonly presence: Presence;
	/** The sandbox network's rules (limits, recipients, quality, opt-outs), checked by `messaging`. */
	readonly rules: NetworkRules;
	readonly messaging: Messaging;
	readonly groups: Groups;
	readonly sendQueue: SendQueue;
	/** Whether the guarded client may reach this machine and private networks (from where the server listens). */
	readonly privateFetch: PrivateFetchPolicy;
	/** The guarded client for everything the server fetches or posts to. */
	readonly outbound: Outbound;
	/** How media given as a URL is fetched (every route that takes a file or image). */
	readonly media: MediaLimits;
	/** Set once the server listens: where clients reach it (file URLs point here). */
	baseUrl = '';
	private tokenKey: Buffer;

	constructor(
		readonly config: Config,
		readonly log: FastifyBaseLogger,
		options: ServiceOptions = {},
	) {
		const onError = (error: unknown) => log.error({ err: error }, 'background work failed');
		this.store = Store.open(config.data, (message) => log.warn(message));
		this.privateFetch = privateFetchPolicy(config.allowPrivateFetch, config.host);
		this.outbound = new Outbound({ allowPrivate: this.privateFetch.allowed, resolve: options.resolve });
		this.media = { timeoutMs: config.mediaTimeoutMs, maxBytes: config.mediaMaxBytes, outbound: this.outbound };
		this.delivery = new WebhookDelivery(this.store, config, this.outbound, onError);
		this.events = new Events(this.store, () => this.delivery.worker.wake());
		this.pairing = new Pairing(this.store, this.events, config);
		this.presence = new Presence(this.store, this.events, config);
		this.rules = new NetworkRules(this.store, config);
		this.messaging = new Messaging(this.store, this.events, config, this.presence, this.rules, () => this.baseUrl);
		this.groups = new Groups(this.store, this.events, this.messaging, () => this.baseUrl);
		this.sendQueue = new SendQueue(this.store, this.messaging, onError);
		this.tokenKey = loadTokenKey(this.store, config.data);
	}

	/**
	 * A device's instance token. It is derived from a server key rather than stored, so the store
	 * keeps only its digest and the owner can still be shown it by `GET /devices`.
	 */
	instanceToken(deviceId: string): string {
		return crypto.createHmac('sha256', this.tokenKey).update(`instance:${deviceId}`).digest('base64url');
	}

	start() {
		this.pairing.start();
		this.rules.start();
		this.messaging.start();
		this.sendQueue.worker.wake();
		this.delivery.worker.wake();
	}

	/** Finishes in-flight work (queued sends stay queued, undelivered events stay in the outbox) and closes the store. */
	async stop() {
		await this.sendQueue.worker.stop();
		await this.delivery.stop();
		this.pairing.stop();
		this.presence.stop();
		this.messaging.stop();
		this.store.close();
	}
}
