import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { contentOperations, POST_TYPE } from '../shared/content';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';

const operations = contentOperations(POST_TYPE);
const direct = directOperations('post', operations, siteApi);

export class WdmPost implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Post',
		name: 'wdmPost',
		icon: { light: 'file:wdmPost.svg', dark: 'file:wdmPost.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, read, update and delete the posts of the WDM site, with their revisions, autosaves, categories and tags',
		defaults: { name: 'WDM Post' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
