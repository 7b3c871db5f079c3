import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookEvent } from './events.ts';

/** One delivery of one event to one endpoint: a message of the deliveries queue, the same through its retries. */
export interface DeliveryMessage {
  app: string;
  mid: string;
  endpointId: string;
  event: WebhookEvent;
  /** The attempt this message makes: 1, then one more with each retry. */
  attempt: number;
  /** When attempt 1 was made; null before it. Retries end 24 hours after it. */
  firstAttemptAt: string | null;
  /** Not before: a wait longer than SQS's 15-minute delay is made of several hops (shared/webhooks/delivery.ts). */
  dueAt: string;
}

/** What the dispatcher and the deliverer put deliveries on: SQS on AWS, the local stack's queue locally. */
export interface DeliveryQueue {
  /** Each message visible after its delay (at most 900 s, SQS's longest). */
  send(messages: readonly { message: DeliveryMessage; delaySeconds: number }[]): Promise<void>;
  /** A delivery whose retries are spent, kept for the operator (the dead-letter queue and its alarm). */
  deadLetter(message: DeliveryMessage): Promise<void>;
}

/** SQS's longest delay of one message. */
export const MAX_DELAY_SECONDS = 900;

/** SQS's batch size of SendMessageBatch. */
const BATCH = 10;

/** The deliveries queue and its dead-letter queue on SQS. */
export function sqsDeliveryQueue(queueUrl: string, deadLetterQueueUrl: string, region?: string): DeliveryQueue {
  const sqs = new SQSClient({ region });
  return {
    async send(messages) {
      for (let i = 0; i < messages.length; i += BATCH) {
        const batch = messages.slice(i, i + BATCH);
        const sent = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map(({ message, delaySeconds }, n) => ({
              Id: String(n),
              MessageBody: JSON.stringify(message),
              DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
            })),
          }),
        );
        // A partial failure is thrown: the stream (or the queue) hands the whole batch again, and the deliveries
        // already sent go twice, with the same webhook-id each time (receivers drop what they have seen).
        if (sent.Failed?.length) throw new Error(`SQS refused ${sent.Failed.length} of ${batch.length} deliveries`);
      }
    },
    async deadLetter(message) {
      await sqs.send(new SendMessageCommand({ QueueUrl: deadLetterQueueUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}
