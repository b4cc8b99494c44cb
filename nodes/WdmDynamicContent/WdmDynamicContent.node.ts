import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directResources } from '../shared/direct';
import { pickerMethods } from '../shared/pickers';
import { resourceProperties, resourceSubtitle } from '../shared/resources';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { postTypes } from './postTypes';
import { taxonomies } from './taxonomies';
import { metaBoxes } from './metaBoxes';
import { relations } from './relations';
import { optionsPages } from './optionsPages';
import { contentItems } from './contentItems';
import { items } from './items';
import { queries } from './queries';
import { search } from './search';
import { mcpTools } from './mcpTools';

const resources = [postTypes, taxonomies, contentItems, metaBoxes, relations, optionsPages, items, queries, search, mcpTools];

// Bulk path: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directResources(resources, siteApi);

export class WdmDynamicContent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Dynamic Content',
		name: 'wdmDynamicContent',
		icon: { light: 'file:wdmDynamicContent.svg', dark: 'file:wdmDynamicContent.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: resourceSubtitle(resources),
		description: "Define post types, taxonomies, meta boxes, relations, options pages and queries of the WDM site's dynamic-content engine, search it, and run its MCP tools",
		defaults: { name: 'WDM Dynamic Content' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: [...resourceProperties(resources), direct.requestOptions],
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
