import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { directResources } from '../shared/direct';
import { pickerMethods } from '../shared/pickers';
import { resourceProperties, resourceSubtitle } from '../shared/resources';
import { siteApi, siteRequestDefaults } from '../shared/site';
import { globals } from './globals';
import { settings } from './settings';
import { kitDefaults } from './kitDefaults';
import { favorites } from './favorites';
import { userData } from './userData';
import { globalClasses } from './globalClasses';
import { variables } from './variables';
import { designSystem } from './designSystem';
import { components } from './components';
import { templates } from './templates';
import { checklist } from './checklist';
import { onboarding } from './onboarding';
import { library } from './library';
import { events } from './events';
import { feedback } from './feedback';
import { lookups } from './lookups';
import { navigation } from './navigation';
import { documents } from './documents';
import { ai } from './ai';

const resources = [globals, settings, kitDefaults, favorites, userData, globalClasses, variables, designSystem, components, templates, checklist, onboarding, library, events, feedback, lookups, navigation, documents, ai];

// Bulk path: the operations run with each parameter read once per item (see shared/direct.ts).
const direct = directResources(resources, siteApi);

export class WdmPageBuilder implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Page Builder',
		name: 'wdmPageBuilder',
		icon: { light: 'file:wdmPageBuilder.svg', dark: 'file:wdmPageBuilder.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: resourceSubtitle(resources),
		description: "Manage the WDM site's page builder: globals, variables, classes, components, templates, onboarding and the generated stylesheet",
		defaults: { name: 'WDM Page Builder' },
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
