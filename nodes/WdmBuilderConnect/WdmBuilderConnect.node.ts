import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directResources } from '../shared/direct';
import { resourceProperties, resourceSubtitle } from '../shared/resources';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { connection } from './connection';
import { plugins } from './plugins';
import { themes } from './themes';
import { topBar } from './topBar';
import { settings } from './settings';

const resources = [connection, plugins, themes, topBar, settings];

// Bulk path: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directResources(resources, siteApi);

export class WdmBuilderConnect implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Builder Connect',
		name: 'wdmBuilderConnect',
		icon: { light: 'file:wdmBuilderConnect.svg', dark: 'file:wdmBuilderConnect.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: resourceSubtitle(resources),
		description: "Connect the WDM site to the builder cloud and manage its plugins, themes, top-bar notifications and settings",
		defaults: { name: 'WDM Builder Connect' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmSiteApi', required: true }],
		requestDefaults: siteRequestDefaults,
		properties: [...resourceProperties(resources), direct.requestOptions],
	};

	customOperations = direct.customOperations;
}
