import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { create } from './create';
import { remove } from './delete';
import { get, getMany } from './read';
import { moderate, update } from './update';

const operations = [create, get, getMany, update, moderate, remove];
const direct = directOperations('comment', operations, siteApi);

export class WdmComment implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Comment',
		name: 'wdmComment',
		icon: { light: 'file:wdmComment.svg', dark: 'file:wdmComment.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, list, update, moderate and delete the comments on the posts of the WDM site',
		defaults: { name: 'WDM Comment' },
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
