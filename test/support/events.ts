import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A fresh API Gateway v2 event, as the local gateway and AWS build them; never a shared fixture. */
export function anEvent(
  overrides: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    body?: string;
    isBase64Encoded?: boolean;
    pathParameters?: Record<string, string>;
  } = {},
): APIGatewayProxyEventV2 {
  const method = overrides.method ?? 'GET';
  const path = overrides.path ?? '/api/v1/test';
  const query = overrides.query;
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: query ? new URLSearchParams(query).toString() : '',
    headers: { 'user-agent': 'vitest', ...overrides.headers },
    ...(query ? { queryStringParameters: query } : {}),
    ...(overrides.pathParameters ? { pathParameters: overrides.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '21/Nov/2026:17:00:00 +0000',
      timeEpoch: 1_795_280_400_000,
    },
    ...(overrides.body !== undefined ? { body: overrides.body } : {}),
    isBase64Encoded: overrides.isBase64Encoded ?? false,
  };
}

export function aContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '256',
    awsRequestId: 'aws-req-1',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
