/**
 * Setup file of the http and client projects: every answer a test file gets
 * from the identity service or the plant store must be what the OpenAPI
 * document says (status, media type, body schema, required headers such as
 * Retry-After). The identity's is the committed openapi.json; the plant
 * store's is built as its handler serves it. A violation fails the test file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { plantsOpenApi } from '#functions/plants/openapi.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { type AnswerChecker, answerChecker } from './answer-check.ts';
import { installAnswerRecorder, type Service, takeAnswers } from './answer-recorder.ts';

installAnswerRecorder();

// Compiled once per worker, not per test file.
const CHECKERS = Symbol.for('identity-service.answer-checkers');
function checkers(): Record<Service, AnswerChecker> {
  const cache = globalThis as { [CHECKERS]?: Record<Service, AnswerChecker> };
  cache[CHECKERS] ??= {
    identity: answerChecker(JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')), 'Problem'),
    plants: answerChecker(plantsOpenApi('http://localhost')),
  };
  return cache[CHECKERS];
}

afterAll(async () => {
  const answers = await takeAnswers();
  if (answers.length === 0) return;
  const violations = new Map<string, number>();
  for (const answer of answers) {
    const checker = checkers()[answer.service];
    for (const problem of checker.check(answer)) {
      const path = checker.templateOf(answer) ?? answer.path;
      const line = `${answer.service}: ${answer.method} ${path} ${answer.status}: ${problem}`;
      violations.set(line, (violations.get(line) ?? 0) + 1);
    }
  }
  if (violations.size > 0) {
    const lines = [...violations].map(([line, times]) => (times > 1 ? `${line} (×${times})` : line));
    throw new Error(`answers that differ from the OpenAPI document:\n  ${lines.join('\n  ')}`);
  }
});
