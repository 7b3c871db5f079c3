import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { REPO_ROOT } from './http-api.ts';
import { addStacks } from './stacks.ts';

// The hosted pages are built beforehand (cdk.json's `app` runs `npm run build:web`) and uploaded as they are;
// checked first, before any bundling.
const webDist = join(REPO_ROOT, 'web', 'dist');
if (!existsSync(join(webDist, 'index.html'))) {
  throw new Error(`${webDist}/index.html is missing: run \`npm run build:web\` first (the Web stack uploads web/dist)`);
}

const app = new App();
addStacks(app, { webAssetsPath: webDist });
app.synth();
