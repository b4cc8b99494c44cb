import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directResources } from '../shared/direct';
import { pickerMethods } from '../shared/pickers';
import { resourceProperties, resourceSubtitle } from '../shared/resources';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { templates } from './templates';
import { pageTemplates } from './pageTemplates';
import { siteData } from './siteData';
import { settings } from './settings';

const resources = [templates, pageTemplates, siteData, settings];

// Bulk path: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directResources(resources, siteApi);

export class WdmThemeCore implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Theme Core',
		name: 'wdmThemeCore',
		icon: { light: 'file:wdmThemeCore.svg', dark: 'file:wdmThemeCore.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: resourceSubtitle(resources),
		description: "Build the WDM site's header, footer, single and archive templates, say where each applies, and read the site state they use",
		defaults: { name: 'WDM Theme Core' },
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
