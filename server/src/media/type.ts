import contentType from 'content-type';
import { z } from 'zod';

/**
 * Media types as files are stored and served with them: ONE `type/subtype` with optional parameters
 * (RFC 9110, parsed by `content-type`), never a list: a browser reads `text/plain,text/html` as its last
 * entry, so a value that only looks like plain text would be rendered as HTML.
 */

export const MEDIA_TYPE_RULE = 'must be one media type such as image/png or text/plain; charset=utf-8 (type/subtype, then optional ;name=value parameters)';

/** The value as one media type, normalized (`Text/Plain;charset=UTF-8` is `text/plain; charset=UTF-8`), or undefined if it is not one. */
export function mediaType(value: string): string | undefined {
	try {
		return contentType.format(contentType.parse(value));
	} catch {
		return undefined;
	}
}

/** Its `type/subtype` alone (lower case), or undefined if it is not one media type. */
export function essence(value: string): string | undefined {
	try {
		return contentType.parse(value).type;
	} catch {
		return undefined;
	}
}

/** A request field holding a media type: refused (400 naming the field) unless it is one; normalized. */
export const mediaTypeField = z
	.string()
	.max(255)
	.transform((value, ctx) => {
		const type = mediaType(value);
		if (type === undefined) ctx.addIssue({ code: 'custom', message: MEDIA_TYPE_RULE });
		return type ?? z.NEVER;
	});
