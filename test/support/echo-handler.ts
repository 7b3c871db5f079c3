import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A Lambda handler that answers with the event it got, so tests can see what the gateway built. */
export const handler = async (event: APIGatewayProxyEventV2) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json', 'x-echo': 'yes' },
  cookies: ['a=1; Path=/', 'b=2; Path=/'],
  body: JSON.stringify(event),
});
