import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { gatewayRequestDefaults, instanceApi } from '../shared/gateway';
import { directOperations } from '../shared/direct';
import { operationSubtitle } from '../shared/operations';
import { pickerMethods } from '../shared/pickers';
import { create } from './create';
import { updateImage } from './image';
import { getInfo } from './info';
import { getInviteInfo, join, resetInviteCode } from './invites';
import { leave } from './leave';
import { getMany, list } from './list';
import { updateParticipants } from './participants';
import { updateAnnounce, updateDescription, updateLocked, updateName } from './settings';

const operations = [
	create,
	getInfo,
	getMany,
	list,
	getInviteInfo,
	join,
	leave,
	resetInviteCode,
	updateName,
	updateDescription,
	updateImage,
	updateAnnounce,
	updateLocked,
	updateParticipants,
];
const direct = directOperations('group', operations, instanceApi);

export class WdmGroup implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'WDM Group',
		name: 'wdmGroup',
		icon: { light: 'file:wdmGroup.svg', dark: 'file:wdmGroup.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(operations),
		description: 'Create, find and manage groups through a WDM gateway device',
		defaults: { name: 'WDM Group' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wdmInstanceApi', required: true }],
		requestDefaults: gatewayRequestDefaults,
		properties: direct.properties,
	};

	customOperations = direct.customOperations;

	methods = pickerMethods(this.description.properties);
}
