import crypto from 'node:crypto';
import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { conflict } from '../http/errors';
import { deviceView } from './views';

const name = z.object({ name: z.string() });

/** Instance management, on the user's API key. */
export const deviceRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/devices',
		auth: 'user',
		summary: "List the user's devices, with their instance tokens",
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
		handler: ({ services, user, body, reply }) => {
			if (services.store.devices.byName(user.id, body.name)) throw conflict(`you already have a device named '${body.name}'`);
			const id = crypto.randomUUID();
			const device = services.store.devices.insert(
				{ id, user_id: user.id, name: body.name, profile_name: body.profileName ?? body.name },
				services.instanceToken(id),
			);
			reply.code(201);
			return deviceView(device, services.instanceToken(id));
		},
	}),

	route({
		method: 'DELETE',
		path: '/wdm/v1/devices/{name}',
		auth: 'user',
		summary: 'Delete a device with its messages, chats and webhooks',
		params: name,
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			services.pairing.cancel(device.id);
			services.presence.cancelAll(device);
			services.store.devices.delete(device.id);
			return { name: device.name, deleted: true };
		},
	}),

	route({
		method: 'GET',
		path: '/wdm/v1/devices/{name}/qr',
		auth: 'user',
		summary: 'Get the QR code (PNG data URI) and pair code that connect the device',
		params: name,
		handler: async ({ services, user, params }) => {
			const device = await services.pairing.qr(ownDevice(services, user, params.name));
			return { ...deviceView(device), qrcode: device.qr_code, paircode: device.pair_code, expiresAt: device.qr_expires_at };
		},
	}),

	route({
		method: 'GET',
		path: '/wdm/v1/devices/{name}/status',
		auth: 'user',
		summary: 'Get the connection status of a device',
		params: name,
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			return {
				...deviceView(device),
				connected: device.status === 'connected',
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
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			// A logged-out account shows no typing or recording any more.
			services.presence.cancelAll(device);
			return deviceView(services.pairing.disconnect(device, 'logout'));
		},
	}),
];
