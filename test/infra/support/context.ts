import { readFileSync } from 'node:fs';

/**
 * The context `npm run synth` synthesises with: cdk.json's, as an example deployment (`example: true`: a sender at
 * example.com, templates that refuse to deploy). A real deployment names its own sender (infra/config.ts).
 */
export const cdkContext: Record<string, unknown> = {
  ...JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')).context,
  example: true,
};
