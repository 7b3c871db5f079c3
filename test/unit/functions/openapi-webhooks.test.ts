import { describe, expect, it } from 'vitest';
import { identityOpenApi } from '#functions/openapi.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '#shared/webhooks/events.ts';

/** The OpenAPI 3.1 `webhooks` of the identity service: one request per event type, its body's schema and headers. */

const document = identityOpenApi('https://id.example/api/v1') as unknown as {
  webhooks: Record<string, { post: Record<string, any> }>;
};

describe("the OpenAPI document's webhooks", () => {
  it('documents every event type, and the test event, as a POST with the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect(post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
      const schema = post.requestBody.content['application/json'].schema;
      expect(schema.required.sort(), type).toEqual(['data', 'timestamp', 'type']);
      expect(schema.properties.type.const, type).toBe(type);
      expect(post.summary.length, type).toBeGreaterThan(10);
    }
  });

  it('names in each body what the event carries, and never a secret, token or hash', () => {
    const created = document.webhooks['user.created']?.post.requestBody.content['application/json'].schema;
    expect(Object.keys(created.properties.data.properties).sort()).toEqual(['actorId', 'email', 'userId', 'via']);
    const fields = Object.values(document.webhooks).flatMap(({ post }) =>
      Object.keys(post.requestBody.content['application/json'].schema.properties.data.properties ?? {}),
    );
    expect(fields).toContain('userId');
    expect(fields.filter((field) => /password|secret|token|hash|code/i.test(field))).toEqual([]);
  });
});
