import { Aws, CfnRule, Fn, type Stack } from 'aws-cdk-lib';

/**
 * An example deployment (`-c example=true`: `npm run synth`, the tests) is for the offline checks only: its sender
 * is at a domain reserved for examples. A CloudFormation rule that never holds (no Region is named `example`) makes
 * each of its templates refuse to deploy, with the sentence below, before any resource is made.
 */
export function refuseToDeployExample(stack: Stack): void {
  new CfnRule(stack, 'NotAnExampleDeployment', {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, 'example'),
        assertDescription:
          'This template was synthesised with -c example=true, for offline checks: synthesise it again with your own senderDomain (README, Deploying to AWS).',
      },
    ],
  });
}
