import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';

/** The new items a table stream batch carries (INSERT and MODIFY records' new images), as plain objects. */
export function newImagesOf(event: DynamoDBStreamEvent | undefined): Record<string, unknown>[] {
  return (event?.Records ?? []).flatMap((record) =>
    record.dynamodb?.NewImage ? [unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>)] : [],
  );
}
