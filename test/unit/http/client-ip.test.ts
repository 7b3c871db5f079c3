import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  clientIp,
  EDGE_SECRET_HEADER,
  EDGE_SECRET_REREAD_MS,
  type EdgeSecretConfig,
  edgeSecretAt,
  edgeTrust,
  VIEWER_IP_HEADER,
} from '#shared/http/client-ip.ts';
import type { HttpEvent } from '#shared/http/request-state.ts';

const SECRET = 'edge-secret-0123456789abcdef';
const BY_VALUE: EdgeSecretConfig = { edgeSecret: SECRET, edgeSecretArn: undefined, edgeOnly: false };
const NO_EDGE: EdgeSecretConfig = { edgeSecret: undefined, edgeSecretArn: undefined, edgeOnly: false };

function event(headers: Record<string, string>): HttpEvent {
  return { headers, requestContext: { http: { sourceIp: '130.176.0.1' } } } as unknown as HttpEvent;
}

const ipOf = async (e: HttpEvent, config: EdgeSecretConfig) => clientIp(e, await edgeTrust(e, config));

describe('the client address behind the hosted pages’ CloudFront', () => {
  it('is the viewer’s address when the request carries the edge secret', async () => {
    expect(await ipOf(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '203.0.113.7' }), BY_VALUE)).toBe(
      '203.0.113.7',
    );
  });

  it('is API Gateway’s sourceIp for a direct caller naming any address (spoofing the rate limit’s key)', async () => {
    expect(await ipOf(event({ [VIEWER_IP_HEADER]: '203.0.113.7' }), BY_VALUE)).toBe('130.176.0.1');
    expect(await ipOf(event({ [EDGE_SECRET_HEADER]: 'guess', [VIEWER_IP_HEADER]: '203.0.113.7' }), BY_VALUE)).toBe(
      '130.176.0.1',
    );
  });

  it('is sourceIp when no edge is deployed, or the named address is not an address', async () => {
    expect(await ipOf(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '203.0.113.7' }), NO_EDGE)).toBe(
      '130.176.0.1',
    );
    expect(await ipOf(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: 'x; drop' }), BY_VALUE)).toBe(
      '130.176.0.1',
    );
  });
});

describe('the edge secret read by ARN (AWS: EDGE_SECRET_ARN, no value in any template)', () => {
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:EdgeSecret-AbCdEf';

  it('reads the secret once per process, and only for a request that presents one', async () => {
    const secrets = mockClient(SecretsManagerClient);
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: SECRET });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    const config: EdgeSecretConfig = { edgeSecret: undefined, edgeSecretArn: ARN, edgeOnly: false };
    // The read is primed with the mocked client; edgeTrust then finds it by ARN.
    expect(await edgeSecretAt(ARN, { client })).toBe(SECRET);

    expect(await edgeTrust(event({}), config)).toBe('not-from-edge');
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: SECRET }), config)).toBe('from-edge');
    // A wrong secret while the kept one is fresh: refused without another read.
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: 'guess' }), config)).toBe('not-from-edge');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    secrets.restore();
  });

  it('reads a rotated secret again, at most once in 5 minutes however many wrong secrets are presented', async () => {
    const arn = `${ARN}-rotated`;
    const secrets = mockClient(SecretsManagerClient);
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: SECRET })
      .resolves({ SecretString: `${SECRET}-new` });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    const config: EdgeSecretConfig = { edgeSecret: undefined, edgeSecretArn: arn, edgeOnly: false };
    const readAt = Date.now() - EDGE_SECRET_REREAD_MS;
    expect(await edgeSecretAt(arn, { client, now: readAt })).toBe(SECRET);
    // CloudFront now sends the new value: the kept one is 5 minutes old, so it is read again and believed.
    expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: `${SECRET}-new` }), config)).toBe('from-edge');
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) {
      expect(await edgeTrust(event({ [EDGE_SECRET_HEADER]: guess }), config)).toBe('not-from-edge');
    }
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    secrets.restore();
  });

  it('believes no viewer header while the secret cannot be read, and tries again at the next request', async () => {
    const arn = `${ARN}-unreadable`;
    const secrets = mockClient(SecretsManagerClient);
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }))
      .resolves({ SecretString: SECRET });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    await expect(edgeSecretAt(arn, { client })).rejects.toThrow('denied');
    // The failed read is forgotten: the next one asks Secrets Manager again.
    expect(await edgeSecretAt(arn, { client })).toBe(SECRET);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    secrets.restore();
  });

  it('reports a failed read and treats the request as not from the edge', async () => {
    const arn = `${ARN}-failing`;
    const secrets = mockClient(SecretsManagerClient);
    secrets.on(GetSecretValueCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    await expect(edgeSecretAt(arn, { client })).rejects.toThrow();
    // No cached read: edgeTrust reads again (with the default client, mocked alike) and fails again.
    const errors: unknown[] = [];
    const trust = await edgeTrust(
      event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '203.0.113.7' }),
      { edgeSecret: undefined, edgeSecretArn: arn, edgeOnly: false },
      (error) => errors.push(error),
    );
    expect(trust).toBe('not-from-edge');
    expect(errors).toHaveLength(1);
    secrets.restore();
  });
});
