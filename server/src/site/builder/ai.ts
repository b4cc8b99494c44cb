import { z } from 'zod';
import { type Route, route } from '../../http/route';
import { can, siteRoleSchema } from '../roles';
import { requireCap } from './editor-common';

/**
 * `builder-ai/v1/permissions`: what the signed-in user may do with the builder's AI features, from
 * their role's capabilities (text where they may write, images where they may upload, the settings
 * and the connection for administrators).
 */
export const aiRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder-ai/v1/permissions',
		auth: 'site',
		summary: "What the caller may do with the builder's AI features, from their role",
		answer: z.object({
			role: siteRoleSchema,
			can_use_ai: z.boolean(),
			can_generate_text: z.boolean(),
			can_generate_code: z.boolean(),
			can_generate_images: z.boolean(),
			can_edit_images: z.boolean(),
			can_manage_settings: z.boolean(),
			can_connect: z.boolean(),
		}),
		errors: [403],
		handler: ({ siteUser }) => {
			requireCap(siteUser, 'read');
			const write = can(siteUser, 'edit_posts');
			const upload = can(siteUser, 'upload_files');
			const admin = can(siteUser, 'manage_options');
			return {
				role: siteUser.role,
				can_use_ai: write,
				can_generate_text: write,
				can_generate_code: write && can(siteUser, 'unfiltered_html'),
				can_generate_images: write && upload,
				can_edit_images: write && upload,
				can_manage_settings: admin,
				can_connect: admin,
			};
		},
	}),
];
