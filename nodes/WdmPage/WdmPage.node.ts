import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { contentOperations, PAGE_TYPE } from '../shared/content';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';

const operations = contentOperations(PAGE_TYPE);
const direct = directOperations('page', operations, siteApi);

export class WdmPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Page',
		name: 'wdmPage',
		icon: { light: 'file:wdmPage.svg', dark: 'file:wdmPage.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, read, update and delete the pages of the WDM site, with their revisions and autosaves',
		defaults: { name: 'WDM Page' },
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
