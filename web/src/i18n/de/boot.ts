import common from './common.ts';
import pages from './pages.ts';

/** What the first page needs, one chunk: what all pages share and the sign-in pages. */
export default { ...common, ...pages };
