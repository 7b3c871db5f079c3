import type { Context, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Deps } from '../deps.ts';
import { type ContextWithDeps, invocationDeps } from '../http/invocation-deps.ts';
import { describeError } from '../log.ts';
import type { Mailer } from '../mail/message.ts';
import { IDENTITY_METRICS_NAMESPACE, SERVICE_DIMENSION } from '../metrics.ts';
import { newImagesOf } from '../store/stream-images.ts';
import { type DeliveryResult, deliver } from './delivery.ts';
import { dispatch } from './dispatch.ts';
import { type DeliveryMessage, type DeliveryQueue, sqsDeliveryQueue } from './queue.ts';

/** A Lambda context that may bring the deps and the queue to run with (the local stack's: local/webhooks.ts). */
export type WebhookContext = Pick<Context, 'awsRequestId'> & Pick<ContextWithDeps, 'deps'> & { queue?: DeliveryQueue };

let processQueue: DeliveryQueue | undefined;

/** The function's queue: the context's, else SQS at WEBHOOK_QUEUE_URL (built once per cold start). */
function queueOf(deps: Deps, context: WebhookContext | undefined): DeliveryQueue {
  if (context?.queue) return context.queue;
  const { queueUrl, deadLetterQueueUrl } = deps.config.webhooks;
  if (!queueUrl || !deadLetterQueueUrl)
    throw new Error('WEBHOOK_QUEUE_URL and WEBHOOK_DEAD_LETTER_QUEUE_URL are not set');
  processQueue ??= sqsDeliveryQueue(queueUrl, deadLetterQueueUrl, deps.config.region);
  return processQueue;
}

/** DynamoDB Streams → the dispatcher (shared/webhooks/dispatch.ts): a failure throws, and the batch comes again. */
export function dispatchHandler(depsOf: () => Deps) {
  return async (event: DynamoDBStreamEvent, context?: WebhookContext): Promise<void> => {
    const deps = invocationDeps(context, depsOf);
    const items = newImagesOf(event);
    const queued = await dispatch(deps, queueOf(deps, context), items);
    deps.log.info('webhook events dispatched', { records: items.length, deliveries: queued });
  };
}

/**
 * The deliveries queue (SQS) → one attempt per message (shared/webhooks/delivery.ts). A message whose attempt threw
 * (the table or the queue failing, not the receiver: that is a failed attempt, retried by a new message) is reported
 * as a batch item failure, so SQS hands it again and, after a few, moves it to the dead-letter queue. Writes one line
 * that is also the metrics: `WebhookDeliveries` (attempts answered 2xx) and `WebhookFailures` (attempts that failed).
 */
export function deliverHandler(depsOf: () => Deps, options: { mailer: (deps: Deps) => Mailer }) {
  const withMailer = new WeakMap<Deps, Deps>();
  return async (event: SQSEvent, context?: WebhookContext): Promise<SQSBatchResponse> => {
    const base = invocationDeps(context, depsOf);
    let deps = withMailer.get(base);
    if (!deps) {
      // The mail that tells an endpoint's creator it was turned off.
      deps = { ...base, mailer: options.mailer(base) };
      withMailer.set(base, deps);
    }
    const queue = queueOf(deps, context);
    const counts: Record<DeliveryResult, number> = { DELIVERED: 0, FAILED: 0, WAITING: 0, DROPPED: 0 };
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    // At once: ten receivers that each take their 10 s must not add up past the function's timeout.
    await Promise.all(
      (event?.Records ?? []).map(async (record) => {
        try {
          counts[await deliver(deps, queue, JSON.parse(record.body) as DeliveryMessage)] += 1;
        } catch (error) {
          deps.log.error('webhook delivery could not be made', describeError(error));
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    writeDeliveryMetrics(deps, counts);
    return { batchItemFailures };
  };
}

/** The batch's line, in CloudWatch's Embedded Metric Format: two counts with the dimension service. */
function writeDeliveryMetrics(deps: Deps, counts: Record<DeliveryResult, number>): void {
  if (!deps.requestLog.on) return;
  const line = {
    message: 'webhook deliveries',
    [SERVICE_DIMENSION]: deps.requestLog.service,
    WebhookDeliveries: counts.DELIVERED,
    WebhookFailures: counts.FAILED,
    waiting: counts.WAITING,
    dropped: counts.DROPPED,
    _aws: {
      Timestamp: deps.clock.now().getTime(),
      CloudWatchMetrics: [
        {
          Namespace: IDENTITY_METRICS_NAMESPACE,
          Dimensions: [[SERVICE_DIMENSION]],
          Metrics: [{ Name: 'WebhookDeliveries' }, { Name: 'WebhookFailures' }],
        },
      ],
    },
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
