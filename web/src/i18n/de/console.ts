import providers from './console-providers.ts';
import settings from './console-settings.ts';
import users from './console-users.ts';
import webhooks from './console-webhooks.ts';

/** The console's texts, one chunk loaded with the console. */
export default { ...users, ...settings, ...providers, ...webhooks };
