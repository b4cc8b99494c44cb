import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directOperations } from '../shared/direct';
import { operationProperties, operationSubtitle } from '../shared/operations';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { batch } from './batch';
import { getIndex, getNamespaceIndex } from './index';
import { oembedEmbed, oembedProxy } from './oembed';

const operations = [getIndex, getNamespaceIndex, batch, oembedEmbed, oembedProxy];
const direct = directOperations('site', operations, siteApi);

export class WdmSite implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Site',
		name: 'wdmSite',
		icon: { light: 'file:wdmSite.svg', dark: 'file:wdmSite.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Read the index of the WDM site, run batches of content requests and get oEmbed data',
		defaults: { name: 'WDM Site' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: [direct.resourceProperty, ...operationProperties(operations)],
	};

	customOperations = direct.customOperations;
}
