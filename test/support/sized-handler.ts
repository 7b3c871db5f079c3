import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A Lambda handler whose answer is a body of `?bytes=` characters, so tests can see Lambda's response limit. */
export const handler = async (event: APIGatewayProxyEventV2) => ({
  statusCode: 200,
  headers: { 'content-type': 'text/plain' },
  body: 'x'.repeat(Number(event.queryStringParameters?.bytes ?? 0)),
});
