import {
	NodeApiError,
	NodeConnectionTypes,
	WAIT_INDEFINITELY,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type JsonObject,
} from 'n8n-workflow';
import { createHmac } from 'crypto';
import { deviceField } from '../WdmDevice/devices';
import { gatewayRequest } from '../shared/gateway';
import { pickerMethods } from '../shared/pickers';
import { signatureProblem } from '../WdmTrigger/signature';
import { deadlineOf, questionFields, questionRequest, type AnswerKind } from './question';

/*
 * Send and Wait for Reply: sends a question to a contact, subscribes the device's webhook to that one
 * chat (signed, until the deadline) with this execution's resume URL, and puts the execution to wait
 * (n8n's waiting executions: stored, so a restart of n8n loses nothing). The contact's answer comes
 * in as a webhook event and resumes the execution with the answer as the item; when the deadline
 * passes first, n8n resumes it with the timed-out item, and the server drops the expired subscription.
 */

type Context = IExecuteFunctions | IWebhookFunctions;

/** A gateway request with the user's API key, or as the device when `token` is given. */
const gateway = (ctx: Context, method: IHttpRequestMethods, url: string, body?: IDataObject, token?: string) =>
	gatewayRequest(ctx, 'wdmUserApi', method, url, body, token);

const webhookRoute = (device: string) => `/devices/${encodeURIComponent(device)}/webhook`;

/**
 * The subscription's signing secret, derived rather than stored: from the user's API key (which only
 * n8n and the server know) and the question's message id and chat, which the resume URL carries. So
 * the webhook can check signatures after a restart, and a changed URL gets a different secret.
 */
function secretOf(apiKey: string, question: string, chat: string): string {
	return `whsec_${createHmac('sha256', apiKey).update(`wdm-send-and-wait:${question}:${chat}`).digest('base64')}`;
}

interface Message {
	id: string;
	chatid: string;
	fromMe: boolean;
	messageType: string;
	text: string | null;
	quoted: string | null;
	messageTimestamp: number;
	sender: string;
	senderName: string | null;
	content: { selectedId?: string; selectedOptions?: string[] };
}

/** How a contact's answer to a menu arrives (see the server's `answerMenu`). */
const MENU_ANSWERS: Record<Exclude<AnswerKind, 'text'>, string> = { button: 'buttonsResponse', list: 'listResponse', poll: 'pollVote' };

/** Whether `message` answers the question: from the contact (not the device), in that chat, and for a menu, an answer to it. */
function isAnswer(message: Message, chat: string, question: string, kind: AnswerKind): boolean {
	if (message.fromMe || message.chatid !== chat) return false;
	return kind === 'text' || (message.messageType === MENU_ANSWERS[kind] && message.quoted === question);
}

/**
 * The resume webhook of one waiting execution (n8n's waiting-webhook mechanism, as the Wait node's and
 * n8n's own send-and-wait nodes declare it): n8n routes it itself, so there is no registration for
 * `webhookMethods` to manage (the server subscription is made and removed per question).
 */
const resumeWebhooks: INodeTypeDescription['webhooks'] = [
	{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: '', restartWebhook: true },
];

export class WdmSendAndWait implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Send and Wait for Reply',
		name: 'wdmSendAndWait',
		icon: { light: 'file:wdmSendAndWait.svg', dark: 'file:wdmSendAndWait.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ "Ask " + $parameter["number"] }}',
		description: 'Send a question to a contact and wait for the answer (a text, a button, a list item or a poll vote)',
		defaults: { name: 'WDM Send and Wait for Reply' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmUserApi', required: true }],
		waitingNodeTooltip: '={{ "Waiting for " + $parameter["number"] + " to answer" }}',
		webhooks: resumeWebhooks,
		// As n8n's own WhatsApp node with its send-and-wait: an agent's tool call waits for the answer.
		usableAsTool: true,
		properties: [{ ...deviceField, description: 'The device that sends the question and receives the answer' }, ...questionFields],
	};

	methods = pickerMethods(this.description.properties);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// One question per execution (n8n resumes an execution once): the first item's.
		const number = this.getNodeParameter('number', 0, '', { extractValue: true }) as string;
		const deadline = deadlineOf(this);
		const device = this.getNodeParameter('device', 0, '', { extractValue: true }) as string;
		const devices = (await gateway(this, 'GET', '/devices')) as Array<{ name: string; token: string }>;
		const token = devices.find((d) => d.name === device)?.token;
		if (!token) throw new NodeApiError(this.getNode(), {}, { message: `No device named '${device}' among this API key's devices`, httpCode: '404' });

		const { url, body } = questionRequest(this, number);
		const sent = (await gateway(this, 'POST', url, body, token)) as Message;

		const resumeUrl = new URL(this.getWorkflowDataProxy(0).$execution.resumeUrl as string);
		resumeUrl.searchParams.set('chat', sent.chatid);
		resumeUrl.searchParams.set('question', sent.id);
		const credentials = await this.getCredentials('wdmUserApi');
		try {
			await gateway(this, 'POST', webhookRoute(device), {
				url: resumeUrl.toString(),
				events: ['messages'],
				excludeMessages: ['fromMeYes'],
				chatid: sent.chatid,
				...(deadline ? { expiresAt: deadline.getTime() } : {}),
				secret: secretOf(String(credentials.apiKey), sent.id, sent.chatid),
			});
		} catch (error) {
			// No answer could ever arrive: take the question back rather than leave it unanswerable.
			await gateway(this, 'POST', '/message/delete', { id: sent.id }, token).catch(() => undefined);
			throw error instanceof NodeApiError ? error : new NodeApiError(this.getNode(), error as JsonObject);
		}

		// When the deadline passes, n8n resumes the execution by passing this node's input through:
		// that input becomes the timed-out item (an answer replaces it, see `webhook`).
		const timedOut: INodeExecutionData = {
			json: { timedOut: true, text: null, choice: null, messageId: null, timestamp: null, chatid: sent.chatid, questionId: sent.id },
			pairedItem: { item: 0 },
		};
		this.getExecuteData().data = { main: [[timedOut]] };
		await this.putExecutionToWait(deadline ?? WAIT_INDEFINITELY);
		return [[timedOut]];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const { chat, question } = this.getQueryData() as { chat?: string; question?: string };
		const credentials = await this.getCredentials('wdmUserApi');
		const raw = (request as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? JSON.stringify(request.body);
		const problem =
			chat && question ? signatureProblem(secretOf(String(credentials.apiKey), question, chat), request.headers, raw) : 'the URL names no chat and question';
		if (problem) {
			response.status(401).json({ message: `Signature refused: ${problem}` });
			return { noWebhookResponse: true };
		}
		const event = request.body as { event?: string; data?: Message };
		const kind = this.getNodeParameter('answerKind') as AnswerKind;
		// Anything else keeps the execution waiting: n8n resumes it only when workflowData is returned.
		if (event.event !== 'messages' || !event.data || !isAnswer(event.data, chat!, question!, kind)) return { webhookResponse: 'ignored' };

		// Answered: the subscription has done its job. Should removing it fail, it still expires at the deadline.
		try {
			// A webhook has no item: its getNodeParameter takes (name, fallback, options), and the Device is a
			// resource locator as the editor saves it, so its value must be extracted.
			const device = this.getNodeParameter('device', '', { extractValue: true }) as string;
			const subscriptions = (await gateway(this, 'GET', webhookRoute(device))) as Array<{ url: string }>;
			const mine = subscriptions.find((sub) => new URL(sub.url).searchParams.get('question') === question);
			if (mine) await gateway(this, 'POST', webhookRoute(device), { action: 'delete', url: mine.url });
		} catch {
			/* the answer counts all the same */
		}
		const message = event.data;
		const answer: IDataObject = {
			timedOut: false,
			text: message.text,
			// The button or list item's ID, or the poll options voted for; null for a typed answer.
			choice: message.content.selectedId ?? message.content.selectedOptions ?? null,
			messageId: message.id,
			timestamp: message.messageTimestamp,
			chatid: message.chatid,
			sender: message.sender,
			senderName: message.senderName,
			messageType: message.messageType,
			questionId: question!,
		};
		return { workflowData: [[{ json: answer }]] };
	}
}
