import {
	NodeApiError,
	NodeConnectionTypes,
	type JsonObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type IHookFunctions,
	type IHttpRequestMethods,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { randomBytes } from 'crypto';
import { deviceField } from '../WdmDevice/devices';
import { gatewayRequest, readCredential } from '../shared/gateway';
import { pickerMethods } from '../shared/pickers';
import { excludeMessagesOptions, webhookEventOptions } from '../WdmDevice/webhooks';
import { signatureProblem } from './signature';

interface Subscription {
	id: string;
	url: string;
}

/**
 * The user credential of the claims, read once per process and credential rather than for every event:
 * in n8n 2.x a credential read in a webhook costs an expression isolate of its own, created while the
 * webhook waits (read twice an event, it took n8n's webhook handler from about 20 to 150-200 ms here:
 * issue 42). Read again at each activation, after CREDENTIAL_TTL_MS, and when the server refuses it.
 */
const credentials = new Map<string, { read: ICredentialsDecrypted; until: number }>();
const CREDENTIAL_TTL_MS = 10 * 60_000;

async function userCredential(ctx: IHookFunctions | IWebhookFunctions, fresh: boolean): Promise<ICredentialsDecrypted> {
	// By the credential's id (an id-less reference, from an old workflow, is read every time).
	const id = ctx.getNode().credentials?.wdmUserApi?.id;
	const kept = id ? credentials.get(id) : undefined;
	if (!fresh && kept && kept.until > Date.now()) return kept.read;
	const read = await readCredential(ctx, 'wdmUserApi');
	if (id) credentials.set(id, { read, until: Date.now() + CREDENTIAL_TTL_MS });
	return read;
}

/** The device picker's name (a locator's value, or a plain name), for a route. */
const deviceOf = (ctx: IHookFunctions | IWebhookFunctions) => encodeURIComponent(ctx.getNodeParameter('device', '', { extractValue: true }) as string);

/** Calls the device's webhook route with the user credential. */
async function webhookRoute(this: IHookFunctions, method: IHttpRequestMethods, body?: IDataObject) {
	return await gatewayRequest(this, await userCredential(this, true), method, `/devices/${deviceOf(this)}/webhook`, body);
}

/**
 * Claims the delivered event at the server before a run starts for it: false when it was already
 * claimed (a retry of an event whose first attempt is running or ran, perhaps in another n8n process),
 * so every event runs once. When acknowledging at the end of the run, the claim is released if the
 * server records this attempt as failed, so the redelivery runs. Should the claim fail, webhook() fails
 * and n8n answers 500: the server delivers the event again rather than run it twice or lose it.
 */
const eventNames = Object.fromEntries(webhookEventOptions.map((option) => [option.value, option.name]));

async function claimed(this: IWebhookFunctions): Promise<boolean> {
	const subscription = this.getWorkflowStaticData('node').subscriptionId as string | undefined;
	if (!subscription) return true;
	const headers = this.getRequestObject().headers;
	const body = {
		subscription,
		event: String(headers['webhook-id']),
		timestamp: Number(headers['webhook-timestamp']),
		releaseOnFailure: this.getNodeParameter('acknowledge', 'onReceived') === 'lastNode',
	};
	const claim = async (fresh: boolean) => (await gatewayRequest(this, await userCredential(this, fresh), 'POST', `/devices/${deviceOf(this)}/webhook/claim`, body)) as { claimed: boolean };
	try {
		return (await claim(false)).claimed;
	} catch (error) {
		// A key the server refuses (changed or revoked since it was read) claimed nothing: read it again, once.
		if (!['401', '403'].includes(String((error as NodeApiError).httpCode))) throw new NodeApiError(this.getNode(), error as JsonObject);
		return (await claim(true)).claimed;
	}
}

export class WdmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Trigger',
		name: 'wdmTrigger',
		icon: { light: 'file:wdmTrigger.svg', dark: 'file:wdmTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The events' names, not their values ("Message Updates", not "messages_update").
		subtitle: `={{$parameter["events"].map((event) => (${JSON.stringify(eventNames)})[event] || event).join(", ") || "All events"}}`,
		description: 'Starts the workflow when a WDM gateway device has an event (a message, a receipt, a connection change, ...)',
		defaults: { name: 'WDM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmUserApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// "When the workflow has finished" is n8n's lastNode: the server's attempt fails (and the event
				// comes again) when the run does not finish, say on a killed worker.
				responseMode: '={{$parameter["acknowledge"] ?? "onReceived"}}',
				// The server reads only the status: an empty 200, whatever the last node gives.
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{ ...deviceField, description: 'Device whose events start the workflow' },
			{
				// Not "Events": n8n's node panel turns a trigger's Events options into actions and then lists
				// the node without "Trigger", as "WDM" among the other WDM nodes.
				displayName: 'Device Events',
				name: 'events',
				type: 'multiOptions',
				default: ['messages'],
				options: webhookEventOptions,
				description: 'Events that start the workflow; none selected means all',
			},
			{
				displayName: 'Exclude Messages',
				name: 'excludeMessages',
				type: 'multiOptions',
				default: ['wasSentByApi'],
				options: excludeMessagesOptions,
				description: 'Messages not to react to; the default keeps a bot from answering its own messages',
			},
			{
				displayName: 'Acknowledge',
				name: 'acknowledge',
				type: 'options',
				default: 'onReceived',
				options: [
					{
						name: 'When Received',
						value: 'onReceived',
						description: 'Answer the server as soon as the run has started: quickest; an event whose run dies with its n8n process (a killed worker) is lost',
					},
					{
						name: 'When the Workflow Has Finished',
						value: 'lastNode',
						description: 'Answer the server when the run has finished: a run that fails or dies (a killed worker) gets its event delivered again, and runs again. The server waits for the run up to its webhook timeout (30 s by default).',
					},
				],
				description: 'When the server is told the event was received. Either way, an event delivered more than once (a retry after a late answer) starts one run.',
			},
		],
	};

	methods = pickerMethods(this.description.properties);

	webhookMethods = {
		default: {
			/** Registered when the device has a subscription for this URL and the secret is still known. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const url = this.getNodeWebhookUrl('default');
				const subs = (await webhookRoute.call(this, 'GET')) as Subscription[];
				const mine = subs.find((sub) => sub.url === url);
				if (mine && staticData.secret && staticData.subscriptionId === mine.id) return true;
				return false;
			},

			/** Upserts the subscription for this node's URL; other subscriptions of the device stay. */
			async create(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const secret = `whsec_${randomBytes(32).toString('base64')}`;
				const sub = (await webhookRoute.call(this, 'POST', {
					url: this.getNodeWebhookUrl('default'),
					events: this.getNodeParameter('events') as string[],
					excludeMessages: this.getNodeParameter('excludeMessages') as string[],
					enabled: true,
					secret,
				})) as Subscription;
				staticData.subscriptionId = sub.id;
				staticData.secret = secret;
				return true;
			},

			/** Removes only this node's subscription. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				try {
					await webhookRoute.call(this, 'POST', { action: 'delete', url: this.getNodeWebhookUrl('default') });
				} catch (error) {
					// Already gone (404) is what we wanted; anything else is worth reporting.
					if ((error as { httpCode?: string }).httpCode !== '404') throw new NodeApiError(this.getNode(), error as JsonObject);
				}
				delete staticData.subscriptionId;
				delete staticData.secret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const secret = this.getWorkflowStaticData('node').secret as string | undefined;
		const raw = (request as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? JSON.stringify(request.body);
		const problem = secret ? signatureProblem(secret, request.headers, raw) : 'this trigger has no signing secret; reactivate the workflow';
		if (problem) {
			response.status(401).json({ message: `Signature refused: ${problem}` });
			return { noWebhookResponse: true };
		}
		const event = request.body as IDataObject;
		const events = this.getNodeParameter('events') as string[];
		if (events.length && !events.includes(String(event.event))) return { webhookResponse: 'ignored' };
		if (!(await claimed.call(this))) return { webhookResponse: 'duplicate' };
		return { workflowData: [this.helpers.returnJsonArray([event])] };
	}
}
