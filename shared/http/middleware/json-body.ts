import { fail, failField } from '../../errors.ts';
import { type HttpRequest, header } from '../request-state.ts';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Content type (415) and JSON parsing (400 MALFORMED_JSON) for routes that take
 * a body. Ours rather than @middy/http-json-body-parser, which answers 415 for
 * malformed JSON where the contract wants 400, and decodes invalid UTF-8 silently.
 * Routes without a body schema ignore any body they are sent.
 */
export function parseJsonBody(request: HttpRequest): void {
  const state = request.internal.state;
  if (!state.route.body) return;
  const { body, isBase64Encoded } = request.event;
  if (body === undefined || body === '') {
    state.json = undefined;
    return;
  }
  const contentType = header(request.event, 'content-type') ?? '';
  const form = state.route.bodyType === 'form';
  if (!(form ? FORM_MEDIA_TYPE : JSON_MEDIA_TYPE).test(contentType.trim())) {
    throw fail(
      'UNSUPPORTED_MEDIA_TYPE',
      form ? 'send the body as application/x-www-form-urlencoded' : 'send the body as application/json',
    );
  }
  let text: string;
  try {
    text = isBase64Encoded ? strictUtf8.decode(Buffer.from(body, 'base64')) : body;
  } catch {
    throw fail(form ? 'VALIDATION_FAILED' : 'MALFORMED_JSON', 'body is not valid UTF-8');
  }
  if (form) {
    state.json = formFields(text);
    return;
  }
  try {
    state.json = JSON.parse(text);
  } catch {
    throw fail('MALFORMED_JSON', 'body is not valid JSON');
  }
}

/**
 * A form body as an object of strings. OAuth forbids a parameter sent twice (RFC 6749 3.1, 3.2): refused,
 * named. `__proto__` and the like are plain keys of a null-prototype object, judged by the schema.
 */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) {
      throw failField(name, 'is sent more than once');
    }
    fields[name] = value;
  }
  return fields;
}
