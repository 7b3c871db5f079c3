import { describe, expect, it } from 'vitest';
import { STREAM_FILTERS } from '#shared/webhooks/stream-filter.ts';
import { identityTemplate } from './support/synth.ts';

/**
 * The webhooks' resources (infra/webhooks.ts), as deployed: the table's stream into the dispatcher with the one filter
 * the local stack applies too, the deliveries queue into the deliverer, both dead-letter queues alarmed, and each
 * function's permissions exactly what it does.
 */

type Resource = { Type: string; Properties: Record<string, any> };
const template = identityTemplate();
const withBus = identityTemplate({ webhookEventBus: 'merchant-events' });

const resources = (t: typeof template, type: string) =>
  Object.entries(t.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);
const functionNamed = (t: typeof template, prefix: string) => {
  const found = resources(t, 'AWS::Lambda::Function').find(([id]) => id.includes(prefix));
  if (!found) throw new Error(`no function ${prefix}`);
  return found;
};
const statementsOf = (t: typeof template, fn: Resource) => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = (t.toJSON().Resources as Record<string, Resource>)[roleId] as Resource;
  return (role.Properties.Policies as { PolicyDocument: { Statement: Record<string, any>[] } }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
};
const actionsOf = (statements: Record<string, any>[]) =>
  statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).sort();

describe('webhooks on AWS', () => {
  it('gives the table a NEW_IMAGE stream, read by the dispatcher through the filter the local stack applies', () => {
    const [, table] = resources(template, 'AWS::DynamoDB::Table')[0] as [string, Resource];
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const [dispatcherId] = functionNamed(template, 'WebhookDispatchFunction');
    const mappings = resources(template, 'AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
    const stream = mappings.find((m) => JSON.stringify(m.FunctionName).includes(dispatcherId));
    expect(stream).toMatchObject({
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 86_400,
    });
    expect(stream?.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual(
      STREAM_FILTERS.map((filter) => JSON.parse(JSON.stringify(filter))),
    );
    expect(JSON.stringify(stream?.DestinationConfig)).toContain('DispatchDeadLetters');
  });

  it('feeds the deliverer from the deliveries queue, which sets a message that keeps failing aside', () => {
    const queues = resources(template, 'AWS::SQS::Queue');
    const [, deliveries] = queues.find(([id]) => id.includes('Deliveries') && !id.includes('DeadLetters')) as [
      string,
      Resource,
    ];
    expect(deliveries.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
    expect(JSON.stringify(deliveries.Properties.RedrivePolicy)).toContain('DeliveryDeadLetters');
    expect(deliveries.Properties.VisibilityTimeout).toBe(180);
    const [delivererId] = functionNamed(template, 'WebhookDeliverFunction');
    const mapping = resources(template, 'AWS::Lambda::EventSourceMapping')
      .map(([, r]) => r.Properties)
      .find((m) => JSON.stringify(m.FunctionName).includes(delivererId));
    expect(mapping).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('grants each function what it does, and no more', () => {
    const [, dispatcher] = functionNamed(template, 'WebhookDispatchFunction');
    const [, deliverer] = functionNamed(template, 'WebhookDeliverFunction');
    const dispatch = actionsOf(statementsOf(template, dispatcher)).filter((a: string) => !a.startsWith('xray:'));
    expect(dispatch).toEqual(
      [
        'dynamodb:DescribeStream',
        'dynamodb:GetItem',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sqs:SendMessage',
      ].sort(),
    );
    const deliver = actionsOf(statementsOf(template, deliverer)).filter((a: string) => !a.startsWith('xray:'));
    expect(deliver).toEqual(
      [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'kms:Decrypt',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'ses:SendEmail',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ].sort(),
    );
    // Only the deliverer reads signing secrets, and only under the `webhook` purpose.
    const decrypt = statementsOf(template, deliverer).find((s) => s.Action === 'kms:Decrypt');
    expect(decrypt?.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'webhook' } });
    expect(actionsOf(statementsOf(template, dispatcher))).not.toContain('kms:Decrypt');
    expect(actionsOf(statementsOf(template, dispatcher))).not.toContain('events:PutEvents');
  });

  it('with webhookEventBus, lets the dispatcher put events on that bus and tells it the bus', () => {
    const [, dispatcher] = functionNamed(withBus, 'WebhookDispatchFunction');
    expect(dispatcher.Properties.Environment.Variables.WEBHOOK_EVENT_BUS).toBe('merchant-events');
    const put = statementsOf(withBus, dispatcher).find((s) => s.Action === 'events:PutEvents');
    expect(JSON.stringify(put?.Resource)).toContain('event-bus/merchant-events');
  });

  it('refuses a bus that is neither a name nor an ARN, and a stream ARN without its table', () => {
    expect(() => identityTemplate({ webhookEventBus: 'not a bus!' })).toThrow(/webhookEventBus/);
    expect(() =>
      identityTemplate({
        tableStreamArn: 'arn:aws:dynamodb:us-east-1:123456789012:table/identity/stream/2026-11-29T00:00:00.000',
      }),
    ).toThrow(/goes with "tableName"/);
  });
});
