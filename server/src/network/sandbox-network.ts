import { z } from 'zod';
import { route } from '../http/route';
import { ownDevice } from '../http/auth';
import { notFound } from '../http/errors';
import { parseUser } from './jid';
import { TIERS } from './rules';
import type { OptOutRow } from '../store/network';

const name = z.object({ name: z.string() });
const numberParams = name.extend({ number: z.string() });

const account = z.enum(['business', 'ordinary']);
const tier = z.literal(TIERS);
const rate = z.number().min(0).max(1);
const ms = (description: string) => z.number().nullable().meta({ description: `Unix time, milliseconds: ${description}` });

/** A device's network: its effective rules (its own settings, else the server's, else its account kind's) and their state. */
export const networkAnswer = z.object({
	account: account.meta({ description: 'business: high limits; ordinary: low limits and occasional disconnections' }),
	tier: tier.meta({ description: 'Unique recipients the device may start conversations with per rolling 24 hours' }),
	perSecond: z.number().meta({ description: 'Messages per second, 0 for no limit' }),
	perMinute: z.number().meta({ description: 'Messages per minute, 0 for no limit' }),
	notOnNetworkRate: z.number().meta({ description: 'Share of simulated contacts not on the network' }),
	blockRate: z.number().meta({ description: 'Share of simulated contacts who block the device after its first message' }),
	reportRate: z.number().meta({ description: 'Share of simulated contacts who report (and block) the device after its first message' }),
	disconnectRate: z.number().meta({ description: 'Chance per send that the device loses its connection to the network for a while' }),
	seed: z.number().meta({ description: 'Seed of the draws: the same seed draws the same contacts' }),
	quality: z.object({
		rating: z.enum(['high', 'medium', 'low']),
		score: z.number().meta({ description: '0 to 100: falls 2 per contact who blocked the device, 5 per report, recovers 10 a day; below 30 the device is restricted' }),
		blocks: z.number().meta({ description: 'Contacts who blocked the device' }),
		reports: z.number().meta({ description: 'Contacts who reported (and blocked) the device' }),
	}),
	restrictedUntil: ms('until then the device may only answer contacts who wrote to it in the last 24 hours; null when not restricted'),
	reconnectingUntil: ms('until then the device is off the network (a lost connection); null when connected'),
	uniqueRecipients24h: z.number().meta({ description: 'Conversations the device opened in the last 24 hours (what the tier limits)' }),
	optOuts: z.number().meta({ description: 'Contacts who opted out of its messages' }),
	rules: z.enum(['on', 'off']).meta({ description: "The server's --network-rules: off, no rule applies" }),
});

const optOutAnswer = z.object({
	number: z.string(),
	keyword: z.string().nullable().meta({ description: 'What the contact sent (STOP...); null when the owner recorded it' }),
	at: z.number().meta({ description: 'Unix time, milliseconds' }),
});

const optOutView = (row: OptOutRow) => ({ number: row.phone, keyword: row.keyword, at: row.at });

/**
 * `sandbox/v1` for the network's rules: a device's limits and recipient rates (each null for the server's
 * default), the state they led to, and who opted out of its messages.
 */
export const sandboxNetworkRoutes = [
	route({
		method: 'GET',
		path: '/sandbox/v1/devices/{name}/network',
		auth: 'user',
		summary: "A device's network: its account kind, limits and recipient rates, its quality rating, restriction and opt-outs",
		params: name,
		answer: networkAnswer,
		handler: ({ services, user, params }) => services.rules.view(ownDevice(services, user, params.name)),
	}),

	route({
		method: 'PUT',
		path: '/sandbox/v1/devices/{name}/network',
		auth: 'user',
		summary: "Set a device's account kind, limits and recipient rates (null: back to the server's default); fields left out stay as they are",
		params: name,
		body: z.strictObject({
			account: account.nullable().optional(),
			tier: tier.nullable().optional(),
			perSecond: z.number().int().min(0).nullable().optional(),
			perMinute: z.number().int().min(0).nullable().optional(),
			notOnNetworkRate: rate.nullable().optional(),
			blockRate: rate.nullable().optional(),
			reportRate: rate.nullable().optional(),
			disconnectRate: rate.nullable().optional(),
			seed: z.number().int().nullable().optional(),
		}),
		answer: networkAnswer,
		handler: ({ services, user, params, body }) => services.rules.configure(ownDevice(services, user, params.name), body),
	}),

	route({
		method: 'GET',
		path: '/sandbox/v1/devices/{name}/network/opt-outs',
		auth: 'user',
		summary: "Contacts who opted out of a device's messages (by a keyword such as STOP, or recorded by the owner), in the order they did",
		params: name,
		answer: z.array(optOutAnswer),
		handler: ({ services, user, params }) => services.rules.optOuts(ownDevice(services, user, params.name)).map(optOutView),
	}),

	route({
		method: 'PUT',
		path: '/sandbox/v1/devices/{name}/network/opt-outs/{number}',
		auth: 'user',
		summary: "Record that a number opted out of a device's messages (e.g. from your CRM): sends to it are refused with 422 until cleared",
		params: numberParams,
		answer: optOutAnswer,
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			const { phone } = parseUser(params.number, 'number');
			return optOutView(services.rules.optOut(device, { phone, keyword: null, at: Date.now() }));
		},
	}),

	route({
		method: 'DELETE',
		path: '/sandbox/v1/devices/{name}/network/opt-outs/{number}',
		auth: 'user',
		summary: "Clear a number's opt-out: the device may message it again",
		params: numberParams,
		answer: z.object({ number: z.string(), deleted: z.literal(true) }),
		handler: ({ services, user, params }) => {
			const device = ownDevice(services, user, params.name);
			const { phone } = parseUser(params.number, 'number');
			if (!services.rules.optIn(device, phone)) throw notFound(`${phone} has not opted out of messages from device '${device.name}'`);
			return { number: phone, deleted: true as const };
		},
	}),
];
