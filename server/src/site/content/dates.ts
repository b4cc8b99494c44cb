/**
 * Dates as WordPress's REST routes write them: `date` in the site's time zone and `date_gmt` in GMT,
 * both `YYYY-MM-DDTHH:MM:SS` without an offset. A date a client sends (RFC 3339) is taken in the site's
 * zone unless it carries an offset (`Z`, `+02:00`); `date_gmt` without an offset is GMT.
 */

/** WordPress's `rest_parse_date` pattern. */
export const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Dates are kept to the second, as WordPress's database does. */
export const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/** `Date.UTC`, also for years below 100 (which `Date.UTC` would read as 19xx). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
	const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
	date.setUTCFullYear(year + date.getUTCFullYear() - 2000);
	return date.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, zone: string) {
	let format = formatters.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(zone, format);
	}
	const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
	return utc(Number(parts.year), Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The zone's offset from GMT at the instant `ms`, in ms. */
const offsetAt = (ms: number, zone: string) => wallClock(wholeSeconds(ms), zone) - wholeSeconds(ms);

export const formatGmt = (ms: number) => new Date(wholeSeconds(ms)).toISOString().slice(0, 19);

export const formatLocal = (ms: number, zone: string) => formatGmt(ms + offsetAt(ms, zone));

/** The instant at which the zone's clocks show `wall` (a wall-clock time written as if GMT). */
function fromWallClock(wall: number, zone: string): number {
	let guess = wall - offsetAt(wall, zone);
	// Near a change of offset the first guess can be off by the change: one correction settles it.
	guess = wall - offsetAt(guess, zone);
	return guess;
}

/** Whether the text is a date-time WordPress accepts (the pattern, with a real month, hour, minute and second). */
export function isDateTime(text: string): boolean {
	const m = text.match(DATE_TIME);
	if (!m) return false;
	const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
	return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59;
}

/**
 * The instant a client's date-time names (WordPress's `rest_get_date_with_gmt`): with an offset as
 * written; without one in the site's zone, or in GMT when `gmt` (the `date_gmt` fields).
 */
export function parseDateTime(text: string, zone: string, gmt = false): number {
	const m = text.match(DATE_TIME)!;
	const wall = utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
	const offset = m[7];
	if (!offset) return gmt ? wall : fromWallClock(wall, zone);
	if (offset === 'Z' || offset === 'z') return wall;
	const digits = offset.replace(':', '');
	const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
	return wall - (offset[0] === '-' ? -1 : 1) * minutes * 60000;
}
