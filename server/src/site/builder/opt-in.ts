import { z } from 'zod';
import { type Route, route } from '../../http/route';
import { BUILDER, formatGmt, requireCap } from './editor-common';

/**
 * `builder/v1/operations/opt-in-v4`: the site opts in to the builder's v4 editor (a site-wide
 * setting, kept once with when it was made; opting in again changes nothing).
 */

export interface OptIn {
	opted_in_at: number;
	user_id: number;
}

export const OPT_IN = { kind: 'site-option', key: 'opt_in_v4' };

export const optInRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder/v1/operations/opt-in-v4',
		auth: 'site',
		summary: "Opt the site in to the builder's v4 editor",
		answer: z.object({ success: z.literal(true), opted_in: z.literal(true), already_opted_in: z.boolean(), opted_in_at: z.string() }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'manage_options');
			const { objects } = services.store;
			const before = objects.get<OptIn>(BUILDER, OPT_IN.kind, OPT_IN.key)?.data;
			const optIn = before ?? objects.put<OptIn>(BUILDER, OPT_IN.kind, OPT_IN.key, { opted_in_at: Date.now(), user_id: siteUser.id }).data;
			return { success: true as const, opted_in: true as const, already_opted_in: !!before, opted_in_at: formatGmt(optIn.opted_in_at) };
		},
	}),
];
