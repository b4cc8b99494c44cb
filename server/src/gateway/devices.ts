import crypto from 'node:crypto';
import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { conflict } from '../http/errors';
import { deviceAnswer, deviceView } from './views';
import { networkAnswer } from '../network/sandbox-network';

const name = z.object({ name: z.string() });

/** What pairing shows while a device is connecting: the QR code as a PNG data URI, the pair code and when both expire. */
const pairing = { qrcode: z.string().nullable(), paircode: z.string().nullable(), expiresAt: z.number().nullable() };

/** Instance management, on the user's API key. */
export const deviceRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/devices',
		auth: 'user',
		summary: "List the user's devices, with their instance tokens",
		answer: z.array(deviceAnswer),
		handler: ({ services, user }) =>
			services.store.devices.ofUser(user.id).map((d) => deviceView(d, services.instanceToken(d.id))),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/devices',
		auth: 'user',
		summary: 'Create a device; the answer carries its instance token',
		body: z.object({
			name: z
				.string()
				.trim()
				.regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, "-" or "_"' }),
			profileName: z.string().trim().max(100).optional(),
		}),
		answer: deviceAnswer,
		status: 201,
		errors: [409],
		handler: ({ services, user, body }) => {
			if (services.store.devices.byName(user.id, body.name)) throw conflict(`you already have a device named '${body.name}'`);
			const id = crypto.randomUUID();
			const device = services.store.devices.insert(
				{ id, user_id: user.id, name: body.name, profile_name: body.profileName ?? body.name, is_business: services.rules.newDeviceIsBusiness },
				services.instanceToken(id),
			);
			return deviceView(device, services.instanceToken(id));
		},
	}),

	route({
		method: 'DELETE',
		path: '/wdm/v1/devices/{name}',
		auth: 'user',
		summary: 'Delete a device with its messages, chats and webhooks',
		params: name,
		answer: z.object({ name: z.string(), deleted: z.literal(true) }),
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			services.pairing.cancel(device.id);
			services.presence.cancelAll(device);
			services.rules.forget(device.id);
			services.store.devices.delete(device.id);
			return { name: device.name, deleted: true as const };
		},
	}),

	route({
		method: 'GET',
		path: '/wdm/v1/devices/{name}/qr',
		auth: 'user',
		summary: 'Get the QR code (PNG data URI) and pair code that connect the device; a connected device answers without them',
		params: name,
		answer: deviceAnswer.extend(pairing),
		handler: async ({ services, user, params }) => {
			const owned = ownDevice(services, user, params.name);
			// Nothing to pair: the device as it is, so that a workflow that pairs it can run again.
			const device = owned.status === 'connected' ? owned : await services.pairing.qr(owned);
			return { ...deviceView(device), qrcode: device.qr_code, paircode: device.pair_code, expiresAt: device.qr_expires_at };
		},
	}),

	route({
		method: 'GET',
		path: '/wdm/v1/devices/{name}/status',
		auth: 'user',
		summary: 'Get the connection status of a device',
		params: name,
		answer: deviceAnswer.extend({ connected: z.boolean(), network: networkAnswer, ...z.object(pairing).partial().shape }),
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			return {
				...deviceView(device),
				connected: device.status === 'connected',
				network: services.rules.view(device),
				...(device.status === 'connecting' ? { qrcode: device.qr_code, paircode: device.pair_code, expiresAt: device.qr_expires_at } : {}),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/devices/{name}/logout',
		auth: 'user',
		summary: 'Disconnect the messaging account of a device',
		params: name,
		answer: deviceAnswer,
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			// A logged-out account shows no typing or recording any more.
			services.presence.cancelAll(device);
			return deviceView(services.pairing.disconnect(device, 'logout'));
		},
	}),
];
