import crypto from 'node:crypto';
import QRCode from 'qrcode';
import type { Config } from '../config';
import type { Store } from '../store';
import type { DeviceRow } from '../store/types';
import type { Events } from '../webhooks/events';
import { badRequest, conflict, notFound } from '../http/errors';
import { deviceView } from '../gateway/views';

/**
 * Connecting a device: a QR (and pair code) puts it in `connecting`; the "phone" scans it after
 * `pairDelayMs` (auto mode) or when the sandbox says so; the device is then `connected` with a number.
 */
export class Pairing {
	private timers = new Map<string, NodeJS.Timeout>();

	constructor(
		private store: Store,
		private events: Events,
		private config: Config,
	) {}

	/** Re-arms automatic pairing for devices that were connecting when the server stopped. */
	start() {
		for (const device of this.store.devices.all()) {
			if (device.status === 'connecting') this.schedule(device);
		}
	}

	stop() {
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
	}

	/** The current QR, or a new one when there is none or it expired. */
	async qr(device: DeviceRow): Promise<DeviceRow> {
		if (this.hasValidQr(device)) return device;
		const ref = crypto.randomBytes(16).toString('base64');
		const payload = `2@${ref},${crypto.randomBytes(32).toString('base64')},${device.id}`;
		// No per-row PNG filter search (pngjs' `filterType`) and plain deflate: a smaller PNG (~3 KB instead
		// of ~4.5 KB) in a fraction of the time. A fresh object each time: qrcode writes into it.
		const png = { filterType: 0, deflateStrategy: 0 };
		const image = await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 264, rendererOpts: png });
		const qr_code = `data:image/png;base64,${image.toString('base64')}`;
		const pair_code = crypto.randomBytes(4).toString('hex').toUpperCase().replace(/^(.{4})/, '$1-');
		const updated = this.store.tx(() => {
			// Re-read after the await: a parallel request may have stored a QR, paired or deleted the device.
			const current = this.store.devices.byId(device.id);
			if (!current) throw notFound(`device '${device.name}' not found`);
			if (this.hasValidQr(current)) return current;
			const wasConnecting = current.status === 'connecting';
			const row = this.store.devices.update(device.id, {
				status: 'connecting',
				qr_code,
				pair_code,
				qr_expires_at: Date.now() + this.config.qrTtlMs,
			});
			if (!wasConnecting) this.events.emit(row, 'connection', deviceView(row));
			return row;
		});
		this.schedule(updated);
		return updated;
	}

	/** Whether the device's current QR can be handed out again; a connected device has none to give. */
	private hasValidQr(device: DeviceRow): boolean {
		if (device.status === 'connected') throw badRequest(`device '${device.name}' is already connected; log out first to pair again`);
		return device.status === 'connecting' && !!device.qr_code && (device.qr_expires_at ?? 0) > Date.now();
	}

	private schedule(device: DeviceRow) {
		if (this.config.pairing !== 'auto' || this.timers.has(device.id)) return;
		const timer = setTimeout(() => {
			this.timers.delete(device.id);
			const current = this.store.devices.byId(device.id);
			if (current?.status !== 'connecting') return;
			// The number kept from an earlier pairing may be connected on another device by now (or, from a
			// store of an older server, in another user's world): the simulated phone then gets a new one
			// (throwing here would crash the server).
			const kept = current.phone;
			const holder = kept ? this.store.devices.connectedByPhone(kept) : undefined;
			const taken = (holder && holder.id !== current.id) || (kept && this.store.numbers.inOtherWorld(kept, current.user_id));
			this.complete(current, taken ? this.nextPhone() : undefined);
		}, this.config.pairDelayMs);
		timer.unref();
		this.timers.set(device.id, timer);
	}

	/** The phone scanned the code: the device connects with its number (kept from a previous pairing, or new). */
	complete(device: DeviceRow, phone?: string): DeviceRow {
		if (device.status !== 'connecting') {
			throw badRequest(`device '${device.name}' is ${device.status}; request a QR code first to start pairing`);
		}
		return this.store.tx(() => {
			const number = phone ?? device.phone ?? this.nextPhone();
			// Numbers have owners: another user's device number, or a contact another user's devices talk to,
			// is theirs (taking it would hand over their messages and let the taker answer as that contact).
			if (this.store.numbers.inOtherWorld(number, device.user_id)) {
				throw conflict(`phone ${number} belongs to another user of this server (one of their devices or contacts); pair with another number`);
			}
			const holder = this.store.devices.connectedByPhone(number);
			if (holder && holder.id !== device.id) throw conflict(`phone ${number} is already connected on device '${holder.name}'`);
			this.cancel(device.id);
			const row = this.store.devices.update(device.id, {
				status: 'connected',
				phone: number,
				qr_code: null,
				pair_code: null,
				qr_expires_at: null,
			});
			this.store.numbers.claimDevice(number, device.user_id);
			this.events.emit(row, 'connection', deviceView(row));
			return row;
		});
	}

	disconnect(device: DeviceRow, reason: string): DeviceRow {
		this.cancel(device.id);
		if (device.status === 'disconnected') return device;
		return this.store.tx(() => {
			const row = this.store.devices.update(device.id, {
				status: 'disconnected',
				qr_code: null,
				pair_code: null,
				qr_expires_at: null,
				last_disconnect: Date.now(),
				last_disconnect_reason: reason,
			});
			this.events.emit(row, 'connection', deviceView(row));
			return row;
		});
	}

	cancel(deviceId: string) {
		clearTimeout(this.timers.get(deviceId));
		this.timers.delete(deviceId);
	}

	/** Simulated numbers for paired devices: 55119900000001, 55119900000002, ... never handed out twice, nor one in anyone's world. */
	private nextPhone(): string {
		for (;;) {
			const n = Number(this.store.meta.getOrCreate('next_phone', () => '1'));
			this.store.meta.set('next_phone', String(n + 1));
			const phone = `551199${String(n).padStart(8, '0')}`;
			if (!this.store.devices.phoneTaken(phone) && !this.store.numbers.inAnyWorld(phone)) return phone;
		}
	}
}
