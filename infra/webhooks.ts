import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_FILTERS } from '#shared/webhooks/stream-filter.ts';
import { type FunctionSpec, type RouteFunctionOptions, serviceFunction } from './http-api.ts';
import { acknowledgeWebhookFindings } from './nag.ts';

/**
 * The dispatcher (functions/webhooks/dispatch-events.ts): the table's stream, filtered to the items that make events,
 * in; the event log (Query the endpoints and the log, PutItem an event, GetItem one) and the deliveries queue out.
 */
export const WEBHOOK_DISPATCH_FUNCTION: FunctionSpec = {
  id: 'WebhookDispatch',
  entry: 'functions/webhooks/dispatch-events.ts',
  description: "Webhooks: the table's new activity becomes events, queued for each endpoint that wants them",
  tableActions: ['Query', 'GetItem', 'PutItem'],
  memoryMb: 256,
  timeoutSeconds: 30,
};

/**
 * The deliverer (functions/webhooks/deliver-webhooks.ts): one signed POST per queued delivery. It reads the endpoint
 * (and, to mail the creator of one it turns off, the merchant and that user), logs the attempt (PutItem), and marks
 * the endpoint failing or well again, or off (UpdateItem); it decrypts the signing secrets.
 */
export const WEBHOOK_DELIVER_FUNCTION: FunctionSpec = {
  id: 'WebhookDeliver',
  entry: 'functions/webhooks/deliver-webhooks.ts',
  description: 'Webhooks: one signed POST per queued delivery, retried with backoff for 24 hours',
  tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
  kms: ['webhook:decrypt'],
  ses: true,
  memoryMb: 256,
  // Ten deliveries at once, each 10 s at most.
  timeoutSeconds: 30,
};

export interface WebhooksProps {
  table: ITable;
  /** The table's stream; undefined (a restored table given by name without `tableStreamArn`): nothing dispatches. */
  hasStream: boolean;
  /** Context `webhookEventBus`: an EventBridge bus (name or ARN) that gets every event too. */
  eventBus: string | undefined;
  functionOptions: Omit<RouteFunctionOptions, 'basePath' | 'extrasFor'>;
  /** The SES configuration set the deliverer's one mail is sent with. */
  configurationSetName: string;
}

/**
 * Signed webhooks (README, Webhooks): DynamoDB Streams → the dispatcher → the deliveries queue (SQS) → the deliverer,
 * which POSTs each event and puts a failed one back on the queue with a longer delay until 24 hours have passed;
 * then the delivery goes to `deliveryDeadLetters`. A stream batch the dispatcher keeps failing goes to
 * `dispatchDeadLetters` after its retries. An alarm watches each (infra/monitoring.ts).
 */
export class Webhooks extends Construct {
  readonly queue: Queue;
  readonly deliveryDeadLetters: Queue;
  readonly dispatchDeadLetters: Queue;
  readonly dispatcher: NodejsFunction;
  readonly deliverer: NodejsFunction;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const deadLetterQueue = (name: string) =>
      new Queue(this, name, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
    this.deliveryDeadLetters = deadLetterQueue('DeliveryDeadLetters');
    this.dispatchDeadLetters = deadLetterQueue('DispatchDeadLetters');
    this.queue = new Queue(this, 'Deliveries', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six times the deliverer's timeout, as Lambda asks of a queue it reads.
      visibilityTimeout: Duration.seconds(WEBHOOK_DELIVER_FUNCTION.timeoutSeconds * 6),
      retentionPeriod: Duration.days(4),
      // A message whose handling keeps throwing (the table or KMS failing, not the receiver: that is a retry the
      // deliverer schedules itself) is set aside after five tries.
      deadLetterQueue: { queue: this.deliveryDeadLetters, maxReceiveCount: 5 },
    });

    const environment = {
      WEBHOOK_QUEUE_URL: this.queue.queueUrl,
      WEBHOOK_DEAD_LETTER_QUEUE_URL: this.deliveryDeadLetters.queueUrl,
      ...(props.eventBus && { WEBHOOK_EVENT_BUS: props.eventBus }),
    };
    const send = new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] });
    const busStatements = props.eventBus
      ? [new PolicyStatement({ actions: ['events:PutEvents'], resources: [eventBusArn(this, props.eventBus)] })]
      : [];

    const dispatch = serviceFunction(this, WEBHOOK_DISPATCH_FUNCTION, props.functionOptions, {
      environment,
      statements: [send, ...busStatements],
    });
    this.dispatcher = dispatch.fn;
    if (props.hasStream) {
      this.dispatcher.addEventSource(
        new DynamoEventSource(props.table, {
          startingPosition: StartingPosition.LATEST,
          batchSize: 100,
          maxBatchingWindow: Duration.seconds(1),
          // A batch that keeps failing is halved until the record at fault is alone, then set aside.
          bisectBatchOnError: true,
          retryAttempts: 10,
          maxRecordAge: Duration.hours(24),
          onFailure: new SqsDlq(this.dispatchDeadLetters),
          filters: STREAM_FILTERS.map((pattern) =>
            FilterCriteria.filter(pattern as unknown as Record<string, unknown>),
          ),
          reportBatchItemFailures: false,
        }),
      );
    }

    const deliver = serviceFunction(this, WEBHOOK_DELIVER_FUNCTION, props.functionOptions, {
      environment: { ...environment, SES_CONFIGURATION_SET: props.configurationSetName },
      statements: [
        send,
        new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deliveryDeadLetters.queueArn] }),
      ],
    });
    this.deliverer = deliver.fn;
    this.deliverer.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 20 }),
    );
    acknowledgeWebhookFindings({
      deadLetters: [this.deliveryDeadLetters, this.dispatchDeadLetters],
      functions: [this.dispatcher, this.deliverer],
      tracing: props.functionOptions.tracing,
    });
  }
}

/** A bus given by name is this account's, in this region. */
function eventBusArn(scope: Construct, bus: string): string {
  if (bus.startsWith('arn:')) return bus;
  return Stack.of(scope).formatArn({ service: 'events', resource: 'event-bus', resourceName: bus });
}
