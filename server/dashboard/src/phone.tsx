import { useState } from 'preact/hooks';
import { deviceApi, type Chat, type Device, type Label, type Message, type UserApi } from './api';
import { time, useActions, useLoad } from './hooks';

const REACTIONS = ['👍', '❤️', '😂'];

/** `5511999990001@s.whatsapp.net` -> `5511999990001`. */
const numberOf = (jid: string) => jid.split('@')[0];

/** The contact's name when the network knows one, else its number. */
const titleOf = (chat: Chat) => chat.wa_name || `+${chat.phone}`;

/**
 * The device's side of the network as a phone shows it (its chats with unread counts and labels, a
 * conversation), and the contacts' side as the sandbox plays it: write, read, react, type.
 */
export function PhoneView(props: { api: UserApi; device: Device; revision: string; typing: Record<string, string> }) {
	const { api, device, revision } = props;
	const phone = deviceApi(device.token ?? '');
	const [open, setOpen] = useState<string | null>(null);
	const chats = useLoad(() => phone.chats(), [device.name, revision]);
	const labels = useLoad(() => phone.labels(), [device.name, revision]);
	const chat = chats.data?.find((c) => c.wa_chatid === open);
	return (
		<section class="panel phone" aria-label={`Phone of ${device.name}`}>
			<h2>
				Phone <small>+{device.phone}</small>
			</h2>
			{chats.error && <p class="error">{chats.error}</p>}
			<div class="split">
				<div class="chats">
					<NewChat api={api} device={device} onOpen={setOpen} />
					<ul aria-label="Chats">
						{chats.data?.map((c) => (
							<ChatItem key={c.wa_chatid} chat={c} labels={labels.data ?? []} open={c.wa_chatid === open} onOpen={() => setOpen(c.wa_chatid)} />
						))}
					</ul>
					{chats.data?.length === 0 && <p class="empty">No chats yet: write to the device as a contact.</p>}
				</div>
				{chat ? (
					<Conversation key={chat.wa_chatid} api={api} device={device} chat={chat} revision={revision} typing={props.typing[chat.wa_chatid]} />
				) : (
					<p class="empty conversation">Open a chat.</p>
				)}
			</div>
		</section>
	);
}

function ChatItem({ chat, labels, open, onOpen }: { chat: Chat; labels: Label[]; open: boolean; onOpen: () => void }) {
	return (
		<li>
			<button class={`chat${open ? ' open' : ''}`} onClick={onOpen} aria-label={`Chat with ${titleOf(chat)}`}>
				<span class="name">{titleOf(chat)}</span>
				{chat.wa_unreadCount > 0 && (
					<span class="unread" aria-label={`${chat.wa_unreadCount} unread`}>
						{chat.wa_unreadCount}
					</span>
				)}
				<span class="labels">
					{chat.wa_label.map((id) => {
						const label = labels.find((l) => l.id === id);
						return (
							<span key={id} class="label" style={{ background: label?.colorHex }}>
								{label?.name ?? id}
							</span>
						);
					})}
				</span>
			</button>
		</li>
	);
}

/** A contact writes to the device first: that opens a chat. */
function NewChat({ api, device, onOpen }: { api: UserApi; device: Device; onOpen: (chatid: string) => void }) {
	const { run } = useActions();
	const [from, setFrom] = useState('');
	const [text, setText] = useState('');
	const send = async (e: Event) => {
		e.preventDefault();
		let chatid = '';
		if (await run(async () => (chatid = (await api.inbound(device.name, from.trim(), text)).chatid))) {
			setText('');
			onOpen(chatid);
		}
	};
	return (
		<form class="stack" onSubmit={send} aria-label="Message from a new contact">
			<input aria-label="Contact number" placeholder="contact number, e.g. 5521987650000" value={from} onInput={(e) => setFrom(e.currentTarget.value)} required />
			<div class="row">
				<input aria-label="First message" placeholder="message" value={text} onInput={(e) => setText(e.currentTarget.value)} required />
				<button type="submit">Write as contact</button>
			</div>
		</form>
	);
}

function Conversation(props: { api: UserApi; device: Device; chat: Chat; revision: string; typing?: string }) {
	const { api, device, chat } = props;
	const { run } = useActions();
	const phone = deviceApi(device.token ?? '');
	const messages = useLoad(() => phone.messages(chat.wa_chatid), [chat.wa_chatid, props.revision]);
	const [text, setText] = useState('');
	const [reply, setReply] = useState('');
	const contact = numberOf(chat.wa_chatid);
	const asContact = async (e: Event) => {
		e.preventDefault();
		if (await run(() => api.inbound(device.name, contact, text))) setText('');
	};
	const fromDevice = async (e: Event) => {
		e.preventDefault();
		if (await run(() => phone.send(contact, reply))) setReply('');
	};
	const typing = props.typing === 'composing' ? 'typing…' : props.typing === 'recording' ? 'recording audio…' : null;
	return (
		<div class="conversation" aria-label={`Conversation with ${titleOf(chat)}`}>
			<header class="row spread">
				<strong>{titleOf(chat)}</strong>
				{typing && <em class="typing">{typing}</em>}
			</header>
			<ol class="messages" aria-label="Messages">
				{[...(messages.data ?? [])].reverse().map((m) => (
					<MessageBubble key={m.id} api={api} device={device} message={m} />
				))}
			</ol>
			<form class="row" onSubmit={asContact}>
				<input aria-label="Message as contact" placeholder={`write as +${contact}`} value={text} onInput={(e) => setText(e.currentTarget.value)} required />
				<button type="submit">Send as contact</button>
				<button type="button" onClick={() => run(() => api.typing(device.name, contact, props.typing === 'composing' ? 'paused' : 'composing'))}>
					{props.typing === 'composing' ? 'Stop typing' : 'Start typing'}
				</button>
			</form>
			<form class="row" onSubmit={fromDevice}>
				<input aria-label="Message from device" placeholder="reply from the device (gateway send)" value={reply} onInput={(e) => setReply(e.currentTarget.value)} required />
				<button type="submit">Send from device</button>
			</form>
		</div>
	);
}

function MessageBubble({ api, device, message }: { api: UserApi; device: Device; message: Message }) {
	const { run } = useActions();
	const readable = message.fromMe && ['sent', 'delivered'].includes(message.status);
	return (
		<li class={`bubble ${message.fromMe ? 'out' : 'in'}`}>
			<span class="text">{message.text ?? `[${message.messageType}]`}</span>
			<span class="meta">
				{time(message.messageTimestamp)}
				{message.fromMe && <span class="receipt"> · {message.status}</span>}
			</span>
			{message.reactions.length > 0 && <span class="reactions" aria-label="reactions">{message.reactions.map((r) => r.text).join(' ')}</span>}
			{message.fromMe && (
				<span class="actions">
					{readable && <button onClick={() => run(() => api.read(device.name, message.id))}>Read as contact</button>}
					{REACTIONS.map((emoji) => (
						<button key={emoji} aria-label={`React ${emoji} as contact`} onClick={() => run(() => api.react(device.name, message.id, emoji))}>
							{emoji}
						</button>
					))}
				</span>
			)}
		</li>
	);
}
