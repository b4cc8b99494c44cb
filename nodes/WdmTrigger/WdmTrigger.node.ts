import {
	NodeApiError,
	NodeConnectionTypes,
	type JsonObject,
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
import { pickerMethods } from '../shared/pickers';
import { excludeMessagesOptions, webhookEventOptions } from '../WdmDevice/webhooks';
import { signatureProblem } from './signature';

interface Subscription {
	id: string;
	url: string;
}

/** Calls the device's webhook route with the user credential. */
async function webhookRoute(this: IHookFunctions, method: IHttpRequestMethods, body?: IDataObject) {
	const credentials = await this.getCredentials('wdmUserApi');
	// The device picker's name (a locator's value, or a plain name).
	const device = encodeURIComponent(this.getNodeParameter('device', undefined, { extractValue: true }) as string);
	const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'wdmUserApi', {
		method,
		baseURL: String(credentials.baseUrl).replace(/\/+$/, ''),
		url: `/devices/${device}/webhook`,
		body,
		json: true,
	})) as { data: unknown };
	return response.data;
}

export class WdmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Trigger',
		name: 'wdmTrigger',
		icon: { light: 'file:wdmTrigger.svg', dark: 'file:wdmTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ") || "all events"}}',
		description: 'Starts the workflow when a WDM gateway device has an event (a message, a receipt, a connection change, ...)',
		defaults: { name: 'WDM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmUserApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{ ...deviceField, description: 'Device whose events start the workflow' },
			{
				displayName: 'Events',
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
		return { workflowData: [this.helpers.returnJsonArray([event])] };
	}
}
