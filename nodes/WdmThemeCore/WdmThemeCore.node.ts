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
		properties: resourceProperties(resources),
	};

	customOperations = directResources(resources, siteApi);

	methods = pickerMethods(this.description.properties);
}
