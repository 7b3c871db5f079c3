/** A result with headers of its own (the preflight); plain data is the usual result of a route. */
export class Reply {
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(body: unknown, headers: Record<string, string> = {}) {
    this.body = body;
    this.headers = headers;
  }
}
