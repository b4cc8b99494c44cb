/**
 * Blanking a secret (the AI key) out of what the AI service answers, in every form a service may echo
 * it: as it is, URL-encoded (`%2D`, any case, any mix), JSON-escaped (`\u002d`, `\/`, `\"`) and Base64
 * (standard and URL-safe, at any of the three byte alignments inside a longer Base64 text, whole: the
 * characters it shares with the bytes around it go too). One
 * `Redactor` serves whole answers, streamed text (a secret split across chunks is held back until it
 * is known to be one) and what the conversation keeps.
 */

export const REDACTED = '[redacted]';

/** One position of a form: the texts that may stand there (a character and its escapes). */
type Unit = string[];

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/** Every upper/lower-case spelling of a hex number (`2f`, `2F`). */
function hexCases(value: string): string[] {
	let out = [''];
	for (const c of value) out = out.flatMap((prefix) => [...new Set([prefix + c.toLowerCase(), prefix + c.toUpperCase()])]);
	return out;
}

/** A character as it is, URL-encoded (each UTF-8 byte) or JSON-escaped. */
function charUnit(c: string): Unit {
	const forms = new Set<string>([c]);
	const utf8 = Buffer.from(c, 'utf8');
	let encoded = [''];
	for (const byte of utf8) encoded = encoded.flatMap((prefix) => hexCases(hex(byte, 2)).map((h) => `${prefix}%${h}`));
	for (const form of encoded) forms.add(form);
	const code = c.codePointAt(0)!;
	if (code <= 0xffff) for (const h of hexCases(hex(code, 4))) forms.add(`\\u${h}`);
	if (c === '/' || c === '"' || c === '\\') forms.add(`\\${c}`);
	return [...forms];
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL = `${BASE64.slice(0, 62)}-_`;

/**
 * The secret's Base64 (standard or URL-safe), after 0, 1 or 2 other bytes: one unit per character that
 * holds a bit of the secret. A character at either edge also holds bits of the bytes around it: its unit
 * is every character with the secret's bits in their places.
 */
function base64Forms(secret: string): Unit[][] {
	const bytes = Buffer.from(secret, 'utf8');
	const bit = (i: number) => (bytes[i >> 3] >> (7 - (i & 7))) & 1;
	const forms: Unit[][] = [];
	for (let shift = 0; shift < 3; shift++) {
		// The secret's bits are [from, to) of the decoded text; each character holds 6 of them.
		const from = 8 * shift;
		const to = from + 8 * bytes.length;
		const units: Unit[] = [];
		for (let start = from - (from % 6); start < to; start += 6) {
			const unit = new Set<string>();
			for (let value = 0; value < 64; value++) {
				let fits = true;
				for (let b = Math.max(start, from); b < Math.min(start + 6, to) && fits; b++) fits = ((value >> (5 - (b - start))) & 1) === bit(b - from);
				if (fits) unit.add(BASE64[value]).add(BASE64URL[value]);
			}
			units.push([...unit]);
		}
		// Too short to tell apart from chance: fewer than 8 characters made of the secret's bits only.
		if (Math.floor(to / 6) - Math.ceil(from / 6) >= 8) forms.push(units);
	}
	return forms;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
	private readonly forms: Unit[][];
	private readonly pattern: RegExp | undefined;
	/** The longest text one form may take: a partial match is never longer. */
	private readonly longest: number;

	constructor(secret: string) {
		this.forms = secret ? [[...secret].map(charUnit), ...base64Forms(secret)] : [];
		const alternatives = this.forms.map((units) => units.map((unit) => `(?:${unit.map(escapeRegex).join('|')})`).join(''));
		this.pattern = alternatives.length ? new RegExp(alternatives.join('|'), 'g') : undefined;
		this.longest = Math.max(0, ...this.forms.map((units) => units.reduce((sum, unit) => sum + Math.max(...unit.map((u) => u.length)), 0)));
	}

	/** The text with every whole form of the secret blanked. */
	redact(text: string): string {
		return this.pattern ? text.replace(this.pattern, REDACTED) : text;
	}

	/** Every string inside a JSON value redacted (decoded strings: any JSON escaping is already undone). */
	redactValue<T>(value: T): T {
		if (typeof value === 'string') return this.redact(value) as T;
		if (Array.isArray(value)) return value.map((item) => this.redactValue(item)) as T;
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.redact(k), this.redactValue(v)])) as T;
		}
		return value;
	}

	/** Whether `text` is the start of a form of the secret (and not a whole one). */
	private startsForm(text: string): boolean {
		const walk = (units: Unit[], at: number, rest: string): boolean => {
			if (rest === '') return true;
			if (at === units.length) return false;
			return units[at].some((form) => (rest.startsWith(form) ? walk(units, at + 1, rest.slice(form.length)) : form.startsWith(rest)));
		};
		return this.forms.some((units) => walk(units, 0, text));
	}

	/**
	 * A redactor of text that arrives in parts: `push` answers what may go out now (redacted), holding
	 * back a tail that may be the start of the secret; `end` answers the rest.
	 */
	stream(): { push(text: string): string; end(): string } {
		let held = '';
		return {
			push: (text: string) => {
				const all = this.redact(held + text);
				let cut = all.length;
				for (let i = Math.max(0, all.length - this.longest + 1); i < all.length; i++) {
					if (this.startsForm(all.slice(i))) {
						cut = i;
						break;
					}
				}
				held = all.slice(cut);
				return all.slice(0, cut);
			},
			end: () => {
				const rest = this.redact(held);
				held = '';
				return rest;
			},
		};
	}
}
