import * as v from 'valibot';

/** RFC 9457 problem details, as every identity error is answered. */
export const Problem = v.object({
  type: v.string(),
  title: v.string(),
  status: v.number(),
  code: v.string(),
  detail: v.optional(v.string()),
  errors: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
});

export const HealthResponse = v.object({ status: v.literal('ok') });

/** The CORS preflight takes any path. */
export const ProxyPathParams = v.object({ proxy: v.optional(v.string()) });
