import type { Route } from '../../http/route';
import { aiRoutes } from './ai';
import { checklistRoutes } from './checklist';
import { componentRoutes } from './components';
import { documentRoutes } from './documents';
import { eventRoutes } from './events';
import { feedbackRoutes } from './feedback';
import { libraryRoutes } from './library';
import { lookupRoutes } from './lookups';
import { navigationRoutes } from './navigation';
import { onboardingRoutes } from './onboarding';
import { optInRoutes } from './opt-in';
import { templateRoutes } from './templates';

/** builder/v1 (and builder/v1/documents, builder/v1/feedback, builder-ai/v1): components, template library, checklist, onboarding, library, events, feedback, lookups, site navigation, document media import, AI permissions. */
export const editorRoutes: Route[] = [
	...componentRoutes,
	...lookupRoutes,
	...navigationRoutes,
	...templateRoutes,
	...onboardingRoutes,
	...checklistRoutes,
	...documentRoutes,
	...libraryRoutes,
	...eventRoutes,
	...feedbackRoutes,
	...optInRoutes,
	...aiRoutes,
];
