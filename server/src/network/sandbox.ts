import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { recipient } from '../http/schema';
import { deviceAnswer, deviceView, messageAnswer, messageView } from '../gateway/views';
import { answerMenu } from '../gateway/send-menus';
import { createLabel, labelAnswer, labelColor, labelName } from '../gateway/labels';
import { loadMedia } from '../media/load';
import { mediaTypeField } from '../media/type';
import { parseUser } from './jid';
import { badRequest } from '../http/errors';
import { groupJid } from '../gateway/groups';
import { sandboxGroupRoutes } from './sandbox-groups';
import { sandboxNetworkRoutes } from './sandbox-network';
import { checkPlayable, playAs } from './owners';
import { isOneEmoji } from '../gateway/messages';

const name = z.object({ name: z.string() });

/**
 * `sandbox/v1`: the other side of the simulated network, for tests and for people trying workflows:
 * complete a pairing, receive messages, read and react as the recipient, type as a contact, and say
 * which numbers are on the network.
 */
export const sandboxRoutes = [
	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/pair',
		auth: 'user',
		summary: 'Complete the pairing of a connecting device (scan its QR), optionally with a chosen phone number',
		params: name,
		body: z.strictObject({ phone: z.string().regex(/^\d{8,15}$/, { error: 'must be 8 to 15 digits' }).optional() }),
		answer: deviceAnswer,
		errors: [403, 409],
		handler: ({ services, user, params, body }) =>
			deviceView(services.pairing.complete(ownDevice(services, user, params.name), body.phone)),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/inbound',
		media: true,
		auth: 'user',
		summary: 'Deliver a message from a number on the network to the device (with `group`: written in that group, to every member device)',
		params: name,
		body: z
			.strictObject({
				from: recipient,
				group: groupJid.optional(),
				senderName: z.string().optional(),
				type: z.enum(['text', 'image', 'video', 'document', 'audio', 'ptt', 'sticker']).default('text'),
				text: z.string().optional(),
				file: z.string().optional(),
				mimetype: mediaTypeField.optional(),
				fileName: z.string().optional(),
				replyid: z.string().optional(),
			})
			.refine((b) => b.type === 'text' || b.file, { error: 'is required for media messages', path: ['file'] })
			.refine((b) => b.type !== 'text' || b.text, { error: 'is required for text messages', path: ['text'] }),
		answer: messageAnswer,
		errors: [403, 429],
		handler: async ({ services, user, params, body }) => {
			const device = ownDevice(services, user, params.name);
			// Refused while webhook deliveries are behind: taking it would only grow the outbox (issue 42).
			services.delivery.admit(device);
			const from = parseUser(body.from, 'from');
			checkPlayable(services.store, user.id, from.phone, 'from');
			// A group message reaches every member device, other users' too: it comes from a simulated contact,
			// as a join does (a device of the caller writes in the group with its own token).
			const holder = body.group && services.store.devices.connectedByPhone(from.phone);
			if (holder) throw badRequest(`from: ${from.phone} is device '${holder.name}' of this server: it writes in the group with its own token`);
			const file = body.file
				? await loadMedia(body.file, 'file', services.media, body)
				: undefined;
			const draft = { type: body.type, text: body.text, file, quoted: body.replyid, senderName: body.senderName };
			// The number enters the caller's world with the message, or not at all when the message is refused.
			// One commit shared with the other requests of this turn (`txShared`): under load, one write of each hot page.
			const row = await services.store.txShared(() => {
				playAs(services.store, user.id, from.phone, 'from');
				return body.group
					? services.messaging.receiveInGroup(device, body.group, from, draft)
					: services.messaging.receive(device, from, draft);
			});
			return messageView(row, services.baseUrl);
		},
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/read',
		auth: 'user',
		summary: 'The recipient reads (or plays, for audio) messages the device sent',
		params: name,
		body: z.strictObject({ id: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]), played: z.boolean().default(false) }),
		answer: z.array(messageAnswer),
		errors: [403],
		handler: ({ services, user, params, body }) => {
			const device = ownDevice(services, user, params.name);
			const ids = Array.isArray(body.id) ? body.id : [body.id];
			// The recipient of a direct message reads it: never another user's device (it reads through the gateway).
			for (const id of ids) {
				const row = services.store.messages.byId(device.id, id);
				const phone = row && !row.is_group ? row.chatid.match(/^(\d+)@/)?.[1] : undefined;
				if (phone) checkPlayable(services.store, user.id, phone, 'id');
			}
			return services.messaging.readByRecipient(device, ids, body.played).map((row) => messageView(row, services.baseUrl));
		},
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/react',
		auth: 'user',
		summary: 'The other side reacts to a message with an emoji (empty text removes the reaction)',
		params: name,
		body: z.strictObject({
			id: z.string().min(1),
			// As the gateway's react: one emoji, or empty to take the reaction back.
			text: z
				.string()
				.max(64, { abort: true })
				.refine((text) => text === '' || isOneEmoji(text), { error: 'must be a single emoji, or empty to remove the reaction' }),
		}),
		answer: messageAnswer,
		errors: [403],
		handler: ({ services, user, params, body }) => {
			const device = ownDevice(services, user, params.name);
			const row = services.store.messages.byId(device.id, body.id);
			if (!row) throw badRequest(`id: no message with id "${body.id}" on this device`);
			// The contact of the chat reacts: in a group there is no one contact to play.
			if (row.is_group) throw badRequest(`id: message "${body.id}" is in group ${row.chatid}; the sandbox reacts as the contact of a direct chat`);
			const phone = row.chatid.split('@')[0];
			if (/^\d+$/.test(phone)) playAs(services.store, user.id, phone, 'id');
			return messageView(services.messaging.react(device, row, row.chatid, body.text), services.baseUrl);
		},
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/answer',
		auth: 'user',
		summary: 'The contact a menu or carousel went to picks a reply button, a list item or poll options',
		params: name,
		body: z.strictObject({
			id: z.string().min(1),
			// Poll options may be several; a button or list item is one id.
			choice: z.union([z.string().min(1), z.array(z.string())], {
				error: (issue) => (issue.input === undefined ? 'is required' : 'must be an id, an option, or a list of poll options'),
			}),
		}),
		answer: messageAnswer,
		errors: [403],
		handler: ({ services, user, params, body }) =>
			messageView(answerMenu(services, ownDevice(services, user, params.name), body.id, body.choice), services.baseUrl),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/presence',
		auth: 'user',
		summary: 'A contact starts or stops typing or recording in its chat with the device',
		params: name,
		body: z.strictObject({ from: recipient, presence: z.enum(['composing', 'recording', 'paused', 'available', 'unavailable']) }),
		answer: z.object({ chatid: z.string(), sender: z.string(), presence: z.enum(['composing', 'recording', 'paused', 'available', 'unavailable']) }),
		errors: [403],
		handler: ({ services, user, params, body }) => {
			const device = ownDevice(services, user, params.name);
			const from = parseUser(body.from, 'from');
			playAs(services.store, user.id, from.phone, 'from');
			const data = { chatid: from.jid, sender: from.jid, presence: body.presence };
			services.events.emit(device, 'presence', data);
			return data;
		},
	}),

	route({
		method: 'GET',
		path: '/sandbox/v1/devices/{name}/presence',
		auth: 'user',
		summary: 'What typing or recording indicators the device is showing right now',
		params: name,
		answer: z.array(
			z.object({
				chatid: z.string(),
				presence: z.enum(['composing', 'recording']),
				until: z.number().meta({ description: 'Unix time, milliseconds' }),
				sent: z.number().meta({ description: 'How many times the indicator went out' }),
			}),
		),
		handler: ({ services, user, params }) => services.presence.of(ownDevice(services, user, params.name)),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/devices/{name}/labels',
		auth: 'user',
		summary: 'Create a label on the device, as its owner does in the app (the gateway API cannot create labels)',
		params: name,
		body: z.strictObject({ name: labelName, color: labelColor.optional() }),
		answer: labelAnswer,
		status: 201,
		errors: [409],
		handler: ({ services, user, params, body }) => createLabel(services, ownDevice(services, user, params.name), body.name, body.color),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/numbers',
		auth: 'user',
		summary: "Say whether a number is on the network for your devices (absent numbers cannot receive their messages), and its name in your world",
		body: z.strictObject({ number: recipient, onNetwork: z.boolean(), name: z.string().optional() }),
		// The caller's world only: other users' devices still reach the number and see their own name for it.
		answer: z.object({ number: z.string(), onNetwork: z.boolean(), name: z.string().nullable() }),
		errors: [403],
		handler: ({ services, user, body }) => {
			const { phone } = parseUser(body.number, 'number');
			services.store.numbers.set(user.id, phone, body.onNetwork, body.name);
			return { number: phone, onNetwork: body.onNetwork, name: services.store.numbers.name(user.id, phone) ?? null };
		},
	}),

	...sandboxGroupRoutes,
	...sandboxNetworkRoutes,
];
