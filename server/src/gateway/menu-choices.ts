/**
 * Menus as the network shows them: the `choices` strings of /send/menu parsed into buttons, list
 * sections or poll options (spec: "Menu choice strings"), the buttons of carousel cards, and the
 * limits the simulated network enforces on them (WhatsApp's own where it has one).
 */

export const MENU_LIMITS = {
	text: 1024,
	footerText: 60,
	buttons: 3,
	buttonText: 20,
	/** Reply button and list item ids: what the answer carries back. */
	id: 256,
	url: 2048,
	listButton: 20,
	sections: 10,
	/** Items of a list, all sections together. */
	rows: 10,
	sectionTitle: 24,
	rowTitle: 24,
	rowDescription: 72,
	pollQuestion: 255,
	pollOptionsMin: 2,
	pollOptionsMax: 12,
	pollOption: 100,
	cards: 10,
	cardButtons: 3,
} as const;

export const BUTTON_TYPES = ['REPLY', 'URL', 'COPY', 'CALL'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

/** One shape for the buttons of menus and of carousel cards: `id` is the reply id, URL, code or phone number. */
export interface MenuButton {
	type: ButtonType;
	text: string;
	id: string;
}

export interface ListRow {
	id: string;
	title: string;
	description: string | null;
}

export interface ListSection {
	/** Items given before the first `[heading]` form a section without a title. */
	title: string | null;
	rows: ListRow[];
}

export interface Poll {
	options: string[];
	selectableCount: number;
	/** Option -> JIDs of the contacts who chose it (a contact's new vote replaces their earlier one). */
	votes: Record<string, string[]>;
}

export const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/**
 * The value of a button as stored (a phone number as `+digits`), or undefined when it does not fit
 * the type: URL buttons open an http(s) URL, CALL buttons dial a phone number.
 */
export function buttonValue(type: ButtonType, value: string): string | undefined {
	if (type === 'URL') return isHttpUrl(value) && value.length <= MENU_LIMITS.url ? value : undefined;
	if (type === 'CALL') {
		const digits = value.replace(/[\s()+.-]/g, '');
		return /^\d{8,15}$/.test(digits) ? `+${digits}` : undefined;
	}
	return value.length > 0 && value.length <= MENU_LIMITS.id ? value : undefined;
}

/** What the value of each type of button must be, for error messages. */
export const BUTTON_VALUE: Record<ButtonType, string> = {
	REPLY: `a reply id of 1 to ${MENU_LIMITS.id} characters`,
	COPY: `a code of 1 to ${MENU_LIMITS.id} characters to copy`,
	URL: 'an http(s) URL',
	CALL: 'a phone number (8 to 15 digits, country code first)',
};

/** Parsing reports every bad entry at once; each problem quotes the entry as the client wrote it. */
class Problems {
	readonly list: string[] = [];
	entry(choices: string[], i: number, rule: string) {
		this.list.push(`choices[${i}] '${choices[i]}' ${rule}`);
	}
	add(problem: string) {
		this.list.push(problem);
	}
}

/** Among the entries so far, the index of an earlier one with this key (ids and options must be unique). */
function firstSeen(seen: Map<string, number>, key: string, i: number): number | undefined {
	const earlier = seen.get(key);
	if (earlier === undefined) seen.set(key, i);
	return earlier;
}

const BUTTON_FORM = "must be 'label|id' for a button menu";
const KIND = /^(copy|url|call):/i;

/** `label|id` (reply), `label|copy:code`, `label|url:https://…`, `label|call:+5511…`. */
function parseButtons(choices: string[], problems: Problems): MenuButton[] {
	if (choices.length > MENU_LIMITS.buttons) {
		problems.add(`choices: a button menu has at most ${MENU_LIMITS.buttons} buttons (got ${choices.length})`);
		return [];
	}
	const buttons: MenuButton[] = [];
	const ids = new Map<string, number>();
	choices.forEach((entry, i) => {
		const bar = entry.indexOf('|');
		const text = entry.slice(0, Math.max(bar, 0)).trim();
		const value = entry.slice(bar + 1).trim();
		if (bar < 0 || !text || !value) return problems.entry(choices, i, BUTTON_FORM);
		if (text.length > MENU_LIMITS.buttonText) {
			problems.entry(choices, i, `has a label over ${MENU_LIMITS.buttonText} characters`);
		}
		const kind = KIND.exec(value);
		if (!kind) {
			// `Yes|yes|Say yes` is a list item written into a button menu.
			if (value.includes('|')) return problems.entry(choices, i, `${BUTTON_FORM} (an id cannot contain '|')`);
			if (value.length > MENU_LIMITS.id) return problems.entry(choices, i, `has an id over ${MENU_LIMITS.id} characters`);
			const earlier = firstSeen(ids, value, i);
			if (earlier !== undefined) return problems.entry(choices, i, `repeats the button id '${value}' of choices[${earlier}]`);
			return buttons.push({ type: 'REPLY', text, id: value });
		}
		const type = kind[1].toUpperCase() as ButtonType;
		const stored = buttonValue(type, value.slice(kind[0].length).trim());
		if (stored === undefined) return problems.entry(choices, i, `needs ${BUTTON_VALUE[type]} after '${kind[1]}:'`);
		buttons.push({ type, text, id: stored });
	});
	return buttons;
}

const LIST_FORM = "must be a section heading '[title]' or an item 'title|id|description' for a list menu";

/** `[Section]` headings and `title|id|description` items (description optional, it may contain '|'). */
function parseList(choices: string[], problems: Problems): ListSection[] {
	const sections: (ListSection & { at: number })[] = [];
	const ids = new Map<string, number>();
	let rows = 0;
	choices.forEach((entry, i) => {
		const heading = /^\[(.*)\]$/s.exec(entry.trim());
		if (heading) {
			const title = heading[1].trim();
			if (!title) return problems.entry(choices, i, 'needs a section title between the brackets');
			if (title.length > MENU_LIMITS.sectionTitle) problems.entry(choices, i, `has a section title over ${MENU_LIMITS.sectionTitle} characters`);
			return sections.push({ title, rows: [], at: i });
		}
		const [rawTitle, rawId = '', ...rest] = entry.split('|');
		const title = rawTitle.trim();
		const id = rawId.trim();
		if (!title || !id) return problems.entry(choices, i, LIST_FORM);
		const description = rest.join('|').trim() || null;
		if (title.length > MENU_LIMITS.rowTitle) problems.entry(choices, i, `has a title over ${MENU_LIMITS.rowTitle} characters`);
		if (id.length > MENU_LIMITS.id) problems.entry(choices, i, `has an id over ${MENU_LIMITS.id} characters`);
		if (description && description.length > MENU_LIMITS.rowDescription) {
			problems.entry(choices, i, `has a description over ${MENU_LIMITS.rowDescription} characters`);
		}
		const earlier = firstSeen(ids, id, i);
		if (earlier !== undefined) return problems.entry(choices, i, `repeats the item id '${id}' of choices[${earlier}]`);
		if (!sections.length) sections.push({ title: null, rows: [], at: i });
		sections[sections.length - 1].rows.push({ id, title, description });
		rows++;
	});
	for (const section of sections) {
		if (!section.rows.length && section.title !== null) problems.entry(choices, section.at, 'is a section without items');
	}
	if (!rows && !problems.list.length) problems.add('choices: a list menu needs at least one item');
	if (sections.length > MENU_LIMITS.sections) {
		problems.add(`choices: a list menu has at most ${MENU_LIMITS.sections} sections (got ${sections.length})`);
	}
	if (rows > MENU_LIMITS.rows) problems.add(`choices: a list menu has at most ${MENU_LIMITS.rows} items (got ${rows})`);
	return sections.map(({ title, rows: items }) => ({ title, rows: items }));
}

/** Each choice is an option's text; options are unique. */
function parsePoll(choices: string[], problems: Problems): string[] {
	const seen = new Map<string, number>();
	const options: string[] = [];
	choices.forEach((entry, i) => {
		const option = entry.trim();
		if (!option) return problems.entry(choices, i, 'must be the text of a poll option');
		if (option.length > MENU_LIMITS.pollOption) return problems.entry(choices, i, `is over ${MENU_LIMITS.pollOption} characters`);
		const earlier = firstSeen(seen, option, i);
		if (earlier !== undefined) return problems.entry(choices, i, `repeats the option of choices[${earlier}]`);
		options.push(option);
	});
	const { pollOptionsMin: min, pollOptionsMax: max } = MENU_LIMITS;
	if (choices.length < min || choices.length > max) problems.add(`choices: a poll has ${min} to ${max} options (got ${choices.length})`);
	return options;
}

export type ParsedChoices =
	| { type: 'button'; buttons: MenuButton[] }
	| { type: 'list'; sections: ListSection[] }
	| { type: 'poll'; options: string[] };

/** Parses `choices` for a menu type; `problems` lists every bad entry (empty when all is well). */
export function parseChoices(type: ParsedChoices['type'], choices: string[]): { menu: ParsedChoices; problems: string[] } {
	const problems = new Problems();
	const menu: ParsedChoices =
		type === 'button'
			? { type, buttons: parseButtons(choices, problems) }
			: type === 'list'
				? { type, sections: parseList(choices, problems) }
				: { type, options: parsePoll(choices, problems) };
	return { menu, problems: problems.list };
}
