import { STATUS_CODES } from 'node:http';
import type { AppError } from '../errors.ts';

/** RFC 9457 problem details body. */
export interface ProblemBody {
  type: 'about:blank';
  title: string;
  status: number;
  code: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemOf(error: AppError): ProblemBody {
  const body: ProblemBody = {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
  };
  if (error.detail !== undefined) body.detail = error.detail;
  if (error.errors !== undefined) body.errors = error.errors;
  return body;
}
