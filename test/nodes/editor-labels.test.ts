// What the editor shows of an option is its name: a list of options reads as words, not as the values the
// server takes (issue 39, point 8: the trigger's Events read "connection, messages, messages_update, ...").
import type { INodeProperties } from 'n8n-workflow';
import { EVENT_NAMES } from '../../server/src/webhooks/events';
import { webhookEventOptions } from '../../nodes/WdmDevice/webhooks';
import { NODE_TYPES } from '../helpers/nodes';

/** Lists whose values are names the user knows as they are, with the reason. */
const RAW_ON_PURPOSE: Record<string, string> = {
	// The page builder's template types, as its own editor and the `_builder_template_type` meta write them.
	builderTemplateType: 'the builder names its template types by these slugs',
};

/** Every options list of a node's parameters, collections and fixed collections included, with its path. */
function optionLists(properties: INodeProperties[], at = ''): Array<{ path: string; name: string; options: Array<{ name: string; value: unknown; description?: string }> }> {
	return properties.flatMap((property) => {
		const path = `${at}${property.name}`;
		if (property.type === 'collection') return optionLists(property.options as INodeProperties[], `${path}.`);
		if (property.type === 'fixedCollection') return (property.options as Array<{ name: string; values: INodeProperties[] }>).flatMap((option) => optionLists(option.values, `${path}.${option.name}.`));
		if ((property.type === 'options' || property.type === 'multiOptions') && Array.isArray(property.options)) return [{ path, name: property.name, options: property.options as Array<{ name: string; value: unknown }> }];
		return [];
	});
}

test('no list of options shows the raw values the server takes', () => {
	const raw = Object.values(NODE_TYPES).flatMap((type) =>
		optionLists(type.description.properties)
			.filter((list) => !(list.name in RAW_ON_PURPOSE))
			.flatMap((list) => list.options.filter((option) => typeof option.value === 'string' && option.name === option.value && /^[a-z]/.test(option.name)).map((option) => `${type.description.displayName} ${list.path}: ${option.name}`)),
	);
	expect(raw).toEqual([]);
});

test("the webhook events: the gateway's every event, each with a name and a description", () => {
	expect(webhookEventOptions.map((option) => option.value).sort()).toEqual([...EVENT_NAMES].sort());
	for (const option of webhookEventOptions) expect(option.description).toMatch(/^[A-Z].{10,}/);
});

test('the Chat field of WDM Message starts on By Number or JID: a new number is in no list yet (issue 39, point 4)', () => {
	const message = Object.values(NODE_TYPES).find((type) => type.description.name === 'wdmMessage')!;
	const chats = message.description.properties.filter((property) => property.name === 'number');
	expect(chats.length).toBeGreaterThan(0);
	for (const chat of chats) {
		expect(chat.default).toEqual({ mode: 'id', value: '' });
		expect(chat.modes?.find((mode) => mode.name === 'id')?.displayName).toBe('By Number or JID');
	}
});
