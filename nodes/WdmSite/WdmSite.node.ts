import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { batch } from './batch';
import { coreOperations } from './core';
import { getIndex, getNamespaceIndex } from './index';
import { oembedEmbed, oembedProxy } from './oembed';

const operations = [getIndex, getNamespaceIndex, batch, oembedEmbed, oembedProxy, ...coreOperations];
const direct = directOperations('site', operations, siteApi);

export class WdmSite implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Site',
		name: 'wdmSite',
		icon: { light: 'file:wdmSite.svg', dark: 'file:wdmSite.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Read the index, settings, post types, taxonomies and statuses of the WDM site, search it, run batches of content requests and get oEmbed data',
		defaults: { name: 'WDM Site' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: direct.properties,
	};

	methods = pickerMethods(this.description.properties);

	customOperations = direct.customOperations;
}
