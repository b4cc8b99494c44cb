import { z } from 'zod';

/**
 * Schema pieces shared by many routes. Query strings arrive as text, so the `q*` helpers accept
 * the forms a URL carries (`true`, `1`, `false`, `0`, digits).
 */
export const qBool = z
	.union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
	.transform((v) => v === true || v === 'true' || v === '1');

export const qInt = z.coerce.number().int();

/** A chat or recipient: bare international number, `<id>@s.whatsapp.net`, `<id>@lid` or `<id>@g.us`. */
export const recipient = z.string().trim().min(1);

export const nonEmpty = z.string().trim().min(1);

/** A web address a client gives (a link, a file to download): http or https only. */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
