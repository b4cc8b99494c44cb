import { z } from 'zod';
import { route } from '../http/route';
import { badRequest } from '../http/errors';
import { recipient } from '../http/schema';
import type { Services } from '../services';
import { playAs } from '../network/owners';
import type { DeviceRow, MessageRow } from '../store/types';
import { commonFields, fillPlaceholders, pickCommon, sendMessage } from './sending';
import { messageAnswer } from './views';
import { idempotent } from './idempotency';
import {
	BUTTON_TYPES,
	BUTTON_VALUE,
	MENU_LIMITS,
	buttonValue,
	isHttpUrl,
	parseChoices,
	type ListSection,
	type MenuButton,
	type Poll,
} from './menu-choices';

const MENU_TYPES = ['button', 'list', 'poll', 'carousel'] as const;
type MenuType = Exclude<(typeof MENU_TYPES)[number], 'carousel'>;

/** Fields that only some menu types take: given to another type they are refused, not ignored. */
const ONLY_FOR: Record<'footerText' | 'imageButton' | 'listButton' | 'selectableCount', MenuType[]> = {
	footerText: ['button', 'list'],
	imageButton: ['button'],
	listButton: ['list'],
	selectableCount: ['poll'],
};

const httpUrl = z.string().trim().max(MENU_LIMITS.url).refine(isHttpUrl, { error: 'must be an http(s) URL' });

/** A carousel button; its `id` is checked against its type and stored normalised (CALL: `+digits`). */
const cardButton = z
	.strictObject({
		// `reply` and `REPLY` alike: the spec writes the enum in capitals, people often do not.
		type: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(BUTTON_TYPES)),
		text: z.string().trim().min(1).max(MENU_LIMITS.buttonText),
		id: z.string().trim(),
	})
	.superRefine((button, ctx) => {
		if (buttonValue(button.type, button.id) === undefined) {
			ctx.addIssue({ code: 'custom', message: `must be ${BUTTON_VALUE[button.type]} for a ${button.type} button`, path: ['id'] });
		}
	})
	.transform((button): MenuButton => ({ ...button, id: buttonValue(button.type, button.id)! }));

/** A card: its text's first line is the title, the rest the body. */
const card = z
	.strictObject({
		text: z.string().trim().min(1).max(MENU_LIMITS.text),
		image: httpUrl,
		buttons: z.array(cardButton).min(1).max(MENU_LIMITS.cardButtons),
	})
	.transform(({ text, image, buttons }) => {
		const [title, ...body] = text.split(/\r?\n/);
		return { title: title.trim(), body: body.join('\n').trim(), image, buttons };
	});

/** Reply ids are what an answer carries back, so they are unique across the whole carousel. */
const carousel = z
	.array(card)
	.min(1)
	.max(MENU_LIMITS.cards)
	.superRefine((cards, ctx) => {
		const seen = new Map<string, string>();
		cards.forEach((c, ci) =>
			// A card that failed its own checks may not have its buttons in shape: skip what is not.
			(Array.isArray(c?.buttons) ? c.buttons : []).forEach((b, bi) => {
				if (b?.type !== 'REPLY' || typeof b.id !== 'string') return;
				const where = `carousel[${ci}].buttons[${bi}]`;
				const earlier = seen.get(b.id);
				if (earlier) ctx.addIssue({ code: 'custom', message: `repeats the reply id '${b.id}' of ${earlier}`, path: [ci, 'buttons', bi, 'id'] });
				else seen.set(b.id, where);
			}),
		);
	});

export const menuRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/send/menu',
		auth: 'instance',
		...idempotent,
		summary: 'Send an interactive menu: reply buttons, a list or a poll',
		body: z.strictObject({
			number: recipient,
			type: z.enum(MENU_TYPES).refine((type) => type !== 'carousel', {
				error: "'carousel' is sent with POST /send/carousel, as cards with an image and buttons each",
			}),
			text: z.string().min(1).max(MENU_LIMITS.text),
			// Bounds the work and the error messages; no menu needs more (a list: 10 headings, 10 items).
			choices: z.array(z.string().max(4096)).min(1).max(100),
			footerText: z.string().trim().max(MENU_LIMITS.footerText).optional(),
			listButton: z.string().trim().min(1).max(MENU_LIMITS.listButton).optional(),
			selectableCount: z.number().int().min(1).optional(),
			imageButton: httpUrl.optional(),
			...commonFields,
		}),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			const type = body.type as MenuType;
			const { menu, problems } = parseChoices(type, body.choices);
			for (const [field, types] of Object.entries(ONLY_FOR) as [keyof typeof ONLY_FOR, MenuType[]][]) {
				if (body[field] !== undefined && !types.includes(type)) problems.push(`${field} applies to ${types.join(' and ')} menus only`);
			}
			if (type === 'list' && !body.listButton) problems.push('listButton is required for a list menu: the label of the button that opens it');
			if (type === 'poll' && body.text.length > MENU_LIMITS.pollQuestion) {
				problems.push(`text must be at most ${MENU_LIMITS.pollQuestion} characters long for a poll`);
			}
			const selectableCount = body.selectableCount ?? 1;
			if (menu.type === 'poll' && selectableCount > Math.max(menu.options.length, 1)) {
				problems.push(`selectableCount must be between 1 and the number of options (${menu.options.length})`);
			}
			if (problems.length) throw badRequest(problems.join('; '));

			const footerText = fillPlaceholders(body.footerText, body.placeholders) || null;
			const content =
				menu.type === 'button'
					? { buttons: menu.buttons, footerText, imageButton: body.imageButton ?? null }
					: menu.type === 'list'
						? { listButton: body.listButton, sections: menu.sections, footerText }
						: { poll: { options: menu.options, selectableCount, votes: {} } satisfies Poll };
			return sendMessage(ctx, body.number, body, { type, text: fillPlaceholders(body.text, body.placeholders)!, content });
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/send/carousel',
		auth: 'instance',
		...idempotent,
		summary: 'Send a carousel of cards, each with an image, a text and buttons',
		body: z.strictObject({
			number: recipient,
			text: z.string().min(1).max(MENU_LIMITS.text),
			carousel,
			...pickCommon('delay', 'readchat', 'readmessages', 'replyid', 'mentions', 'forward', 'track_source', 'track_id', 'async'),
		}),
		answer: messageAnswer,
		handler: (ctx) => sendMessage(ctx, ctx.body.number, ctx.body, { type: 'carousel', text: ctx.body.text, content: { cards: ctx.body.carousel } }),
	}),
];

/** How a contact answers each kind of menu. */
const ANSWER_TYPES: Record<string, string> = { button: 'buttonsResponse', carousel: 'buttonsResponse', list: 'listResponse', poll: 'pollVote' };

const listOf = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

/** What the contact's answer message says, for a choice of this menu; throws when the menu has no such choice. */
function answerTo(menu: MessageRow, choice: string | string[]): { text: string | null; content: Record<string, unknown> } {
	const content = JSON.parse(menu.content) as {
		buttons?: MenuButton[];
		cards?: { buttons: MenuButton[] }[];
		sections?: ListSection[];
		poll?: Poll;
	};
	if (menu.message_type === 'poll') {
		const poll = content.poll!;
		const picked = Array.isArray(choice) ? choice : [choice];
		if (picked.length > poll.selectableCount) {
			throw badRequest(`choice: the poll lets a contact choose at most ${poll.selectableCount} option(s) (got ${picked.length})`);
		}
		if (new Set(picked).size !== picked.length) throw badRequest('choice: an option can be chosen only once');
		const unknown = picked.filter((option) => !poll.options.includes(option));
		if (unknown.length) throw badRequest(`choice: the poll has no option ${listOf(unknown)} (options: ${listOf(poll.options)})`);
		return { text: picked.join(', ') || null, content: { selectedOptions: picked } };
	}
	if (typeof choice !== 'string') throw badRequest(`choice: a ${menu.message_type} menu is answered with one id, not a list`);
	if (menu.message_type === 'list') {
		const rows = (content.sections ?? []).flatMap((s) => s.rows.map((row) => ({ ...row, section: s.title })));
		const row = rows.find((r) => r.id === choice);
		if (!row) throw badRequest(`choice: the list has no item with the id '${choice}' (ids: ${listOf(rows.map((r) => r.id))})`);
		return { text: row.title, content: { selectedId: row.id, selectedText: row.title, selectedSection: row.section } };
	}
	// Button menus and carousels: only reply buttons send an answer (the others open a URL, copy, or call).
	const cards = content.cards ?? [{ buttons: content.buttons ?? [] }];
	const replies = cards.flatMap((c, cardIndex) => c.buttons.filter((b) => b.type === 'REPLY').map((b) => ({ ...b, cardIndex })));
	const button = replies.find((b) => b.id === choice);
	if (!button) {
		const what = content.cards ? 'carousel' : 'menu';
		throw badRequest(`choice: the ${what} has no reply button with the id '${choice}' (reply ids: ${listOf(replies.map((b) => b.id))})`);
	}
	return {
		text: button.text,
		content: { selectedId: button.id, selectedText: button.text, ...(content.cards ? { cardIndex: button.cardIndex } : {}) },
	};
}

/** The poll's tally after `voter` chose `picked`: their earlier vote goes, an empty choice takes it back. */
function withVote(poll: Poll, voter: string, picked: string[]): Poll {
	const votes: Record<string, string[]> = {};
	for (const option of poll.options) {
		const voters = (poll.votes[option] ?? []).filter((jid) => jid !== voter);
		if (picked.includes(option)) voters.push(voter);
		if (voters.length) votes[option] = voters;
	}
	return { ...poll, votes };
}

/**
 * The contact a menu went to answers it (sandbox): the menu is read, and an answer quoting it arrives
 * at the device. A poll also keeps the tally in its content (a new vote replaces the voter's earlier one).
 */
export function answerMenu(services: Services, device: DeviceRow, id: string, choice: string | string[]): MessageRow {
	const { store, messaging, events } = services;
	const menu = store.messages.byId(device.id, id);
	if (!menu || !menu.from_me) throw badRequest(`id: no message sent by this device has the id "${id}"`);
	if (!ANSWER_TYPES[menu.message_type]) throw badRequest(`id: message "${id}" is a ${menu.message_type} message, not a menu`);
	if (menu.status === 'queued' || menu.status === 'failed' || menu.status === 'deleted') {
		throw badRequest(`id: menu "${id}" is ${menu.status} and cannot be answered`);
	}
	if (menu.is_group) throw badRequest(`id: menu "${id}" went to a group; the sandbox answers menus sent to contacts`);
	const phone = menu.chatid.split('@')[0];
	const peer = store.devices.connectedByPhone(phone);
	if (peer) throw badRequest(`id: menu "${id}" went to device '${peer.name}' of this server, not to a simulated contact`);
	const answer = answerTo(menu, choice);
	return store.tx(() => {
		playAs(store, device.user_id, phone, 'id');
		if (menu.status === 'sent' || menu.status === 'delivered') messaging.readByRecipient(device, [menu.id], false);
		const row = messaging.receive(device, { jid: menu.chatid, phone, isGroup: false }, {
			type: ANSWER_TYPES[menu.message_type],
			text: answer.text,
			quoted: menu.id,
			content: answer.content,
		});
		if (menu.message_type === 'poll') {
			// Read again: the read receipt above rewrote the row.
			const content = JSON.parse(store.messages.byId(device.id, menu.id)!.content) as { poll: Poll };
			const poll = withVote(content.poll, menu.chatid, answer.content.selectedOptions as string[]);
			const updated = store.messages.update(menu.id, { content: JSON.stringify({ ...content, poll }) });
			const { id: menuId, messageid, chatid, status } = updated;
			events.emit(device, 'messages_update', { id: menuId, messageid, chatid, fromMe: true, status, poll, timestamp: Date.now() });
		}
		return row;
	});
}
