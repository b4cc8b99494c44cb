import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directResources } from '../shared/direct';
import { pickerMethods } from '../shared/pickers';
import { resourceProperties, resourceSubtitle } from '../shared/resources';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { ai } from './ai';

const resources = [ai];

// Bulk path: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directResources(resources, siteApi);

export class WdmAiProxy implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM AI Proxy',
		name: 'wdmAiProxy',
		icon: { light: 'file:wdmAiProxy.svg', dark: 'file:wdmAiProxy.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: resourceSubtitle(resources),
		description: "Chat with an AI model through the WDM site's AI proxy: set the key and model, list models, send chats and manage the conversation",
		defaults: { name: 'WDM AI Proxy' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: [...resourceProperties(resources), direct.requestOptions],
	};

	methods = pickerMethods(this.description.properties);

	customOperations = direct.customOperations;
}
