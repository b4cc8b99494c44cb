import { z } from 'zod';
import { route } from '../http/route';
import { badRequest, conflict, networkFailure, notFound } from '../http/errors';
import { recipient } from '../http/schema';
import { parseAddress } from '../network/jid';
import type { Services } from '../services';
import type { ChatRow, DeviceRow, LabelRow } from '../store/types';
import { chatView } from './views';

/** The network's label palette: a label's `color` is an index into it (names as the node shows them). */
export const LABEL_COLORS = [
	'#FF9484', // 0 Red
	'#64C4FF', // 1 Blue
	'#FED428', // 2 Yellow
	'#DFAEF0', // 3 Purple
	'#9AB6C1', // 4 Gray
	'#56CCB4', // 5 Turquoise
	'#FE9DFE', // 6 Pink
	'#D3A91F', // 7 Mustard
	'#6F7BCF', // 8 Indigo
	'#D8E651', // 9 Lime
	'#01D0E2', // 10 Cyan
	'#FFC5C7', // 11 Light Pink
	'#92CEAC', // 12 Sage
	'#F64847', // 13 Crimson
	'#00A1F2', // 14 Sky Blue
	'#83E421', // 15 Green
	'#FFAE07', // 16 Orange
	'#B4EBFF', // 17 Light Blue
	'#9BA6FF', // 18 Periwinkle
	'#9568CF', // 19 Violet
] as const;

/** As on the network's business app: a device has at most this many labels. */
export const MAX_LABELS = 20;

export const labelAnswer = z.object({
	id: z.string(),
	name: z.string(),
	color: z.number().meta({ description: 'Index into the palette' }),
	colorHex: z.string(),
});

export function labelView(row: LabelRow): z.output<typeof labelAnswer> {
	return { id: String(row.id), name: row.name, color: row.color, colorHex: LABEL_COLORS[row.color] };
}
export type LabelView = ReturnType<typeof labelView>;

/** A label id as a client may write it: `"3"` (the spec's form) or `3`. Whether it exists is the route's check. */
const NOT_AN_ID = 'must be a label id such as "3"';
const labelId = z
	.union([z.string(), z.number()], { error: (issue) => (issue.input === undefined ? 'is required' : NOT_AN_ID) })
	.transform((id) => String(id).trim())
	.refine((id) => id.length > 0 && id.length <= 32, { error: NOT_AN_ID });
export const labelName = z.string().trim().min(1).max(100);
export const labelColor = z.number().int().min(0).max(LABEL_COLORS.length - 1);

const CHAT_MODES = ['labelids', 'add_labelid', 'remove_labelid'] as const;

/** The label ids of a chat, as stored in `chats.labels`. */
const labelIdsOf = (chat: ChatRow): string[] => (JSON.parse(chat.labels) as unknown[]).filter((id): id is string => typeof id === 'string');

const byNumber = (a: string, b: string) => Number(a) - Number(b);

/** Labels change on the network, which a device reaches only while it is connected. */
function requireConnected(device: DeviceRow) {
	if (device.status !== 'connected') {
		throw networkFailure(`device '${device.name}' is not connected (status: ${device.status}); labels can be changed only while it is connected`);
	}
}

/** What POST /chat/labels answers and the `chat_labels` event carries. */
function chatLabels(services: Services, device: DeviceRow, chat: ChatRow, added: string[], removed: string[]) {
	const labelids = labelIdsOf(chat);
	const labels = new Map(services.store.labels.ofDevice(device.id).map((row) => [String(row.id), labelView(row)]));
	return { chatid: chat.chatid, labelids, labels: labelids.flatMap((id) => labels.get(id) ?? []), added, removed };
}

/** Creates a label (the sandbox plays the phone app here: the gateway API cannot create labels). */
export function createLabel(services: Services, device: DeviceRow, name: string, color?: number): LabelView {
	const { store, events } = services;
	return store.tx(() => {
		const labels = store.labels.ofDevice(device.id);
		if (labels.length >= MAX_LABELS) throw conflict(`device '${device.name}' already has ${MAX_LABELS} labels, the most a device can have`);
		const same = store.labels.byName(device.id, name);
		if (same) throw conflict(`name: a label named '${same.name}' already exists (id '${same.id}')`);
		// Like the app: a new label gets the first color no label uses yet.
		const used = new Set(labels.map((l) => l.color));
		const row = store.labels.create(device.id, name, color ?? Math.max(0, LABEL_COLORS.findIndex((_, i) => !used.has(i))));
		const label = labelView(row);
		events.emit(device, 'labels', { action: 'add', label });
		return label;
	});
}

/** Labels of the device, and of its chats. */
export const labelRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/labels',
		auth: 'instance',
		summary: 'List the labels of the device, with their color index and hex color',
		answer: z.array(labelAnswer),
		handler: ({ services, device }) => services.store.labels.ofDevice(device.id).map(labelView),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/labels',
		auth: 'instance',
		summary: 'Set all labels of a chat, or add or remove one',
		body: z.strictObject({
			number: recipient,
			labelids: z.array(labelId).max(100).optional(),
			add_labelid: labelId.optional(),
			remove_labelid: labelId.optional(),
		}),
		answer: z.object({ chatid: z.string(), labelids: z.array(z.string()), labels: z.array(labelAnswer), added: z.array(z.string()), removed: z.array(z.string()) }),
		handler: ({ services, device, body }) => {
			const given = CHAT_MODES.filter((mode) => body[mode] !== undefined);
			if (given.length === 0) throw badRequest(`one of ${CHAT_MODES.join(', ')} is required`);
			if (given.length > 1) throw badRequest(`give only one of ${CHAT_MODES.join(', ')} (got ${given.join(' and ')})`);
			const mode = given[0];
			const to = parseAddress(body.number, 'number');
			const { store, events } = services;
			return store.tx(() => {
				const ids = body.labelids ?? [body.add_labelid ?? body.remove_labelid!];
				const unknown = [...new Set(ids.filter((id) => !store.labels.byId(device.id, id)))];
				if (unknown.length) {
					throw badRequest(`${mode}: unknown label id${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `'${id}'`).join(', ')}`);
				}
				// Ids as the list shows them: "03" is label "3".
				const wanted = ids.map((id) => String(store.labels.byId(device.id, id)!.id));
				requireConnected(device);
				let chat = store.chats.get(device.id, to.jid);
				if (!chat) {
					// Labelling a contact the device has no chat with yet opens that chat, as on the app.
					services.messaging.check(device, to);
					chat = store.chats.create(device.id, { chatid: to.jid, name: store.numbers.name(device.user_id, to.phone ?? '') ?? '', isGroup: to.isGroup });
					events.emit(device, 'chats', chatView(chat));
				}
				const before = labelIdsOf(chat);
				const after = new Set(mode === 'labelids' ? wanted : before);
				if (mode === 'add_labelid') after.add(wanted[0]);
				if (mode === 'remove_labelid') after.delete(wanted[0]);
				const added = [...after].filter((id) => !before.includes(id)).sort(byNumber);
				const removed = before.filter((id) => !after.has(id)).sort(byNumber);
				if (!added.length && !removed.length) return chatLabels(services, device, chat, [], []);
				chat = store.labels.setOfChat(chat.id, [...after].sort(byNumber));
				const data = chatLabels(services, device, chat, added, removed);
				events.emit(device, 'chat_labels', data);
				return data;
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/label/edit',
		auth: 'instance',
		summary: 'Rename or recolor a label, or delete it (it is then taken off every chat)',
		body: z.strictObject({
			labelid: labelId,
			name: labelName.optional(),
			color: labelColor.optional(),
			delete: z.boolean().optional(),
		}),
		answer: labelAnswer.extend({ deleted: z.literal(true).optional() }),
		errors: [404, 409],
		handler: ({ services, device, body }) => {
			const changes = body.name !== undefined || body.color !== undefined;
			if (body.delete && changes) throw badRequest('delete: true cannot be combined with name or color');
			if (!body.delete && !changes) throw badRequest('one of name, color or delete: true is required');
			const { store, events } = services;
			return store.tx(() => {
				const row = store.labels.byId(device.id, body.labelid);
				if (!row) throw notFound(`labelid: no label with id '${body.labelid}' on this device`);
				requireConnected(device);
				const label = labelView(row);
				if (body.delete) {
					store.labels.delete(device.id, row.id);
					events.emit(device, 'labels', { action: 'delete', label });
					for (const chat of store.labels.removeFromChats(device.id, row.id)) {
						events.emit(device, 'chat_labels', chatLabels(services, device, chat, [], [label.id]));
					}
					return { ...label, deleted: true as const };
				}
				const same = body.name === undefined ? undefined : store.labels.byName(device.id, body.name);
				if (same && same.id !== row.id) throw conflict(`name: a label named '${same.name}' already exists (id '${same.id}')`);
				const updated = labelView(store.labels.update(device.id, row.id, body));
				if (updated.name !== label.name || updated.color !== label.color) events.emit(device, 'labels', { action: 'edit', label: updated });
				return updated;
			});
		},
	}),
];
