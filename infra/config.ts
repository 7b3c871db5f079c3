import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/**
 * Deployment settings, read from CDK context (cdk.json, or `-c key=value`).
 * The defaults here equal those in cdk.json, so an App built in a test without
 * cdk.json gets the same stack.
 */
export interface IdentityConfig {
  /** The From address of every e-mail; its domain (or itself) must be a verified SES identity. */
  senderEmail: string;
  /** Empty: derived from the API URL and the base path. */
  issuerUrl: string;
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  authRateLimitPerMinute: string;
}

export const CONTEXT_DEFAULTS = {
  senderEmail: 'no-reply@example.com',
  issuerUrl: '',
  removalPolicy: 'retain',
  logRetentionDays: 30,
  authRateLimitPerMinute: '120',
} as const;

const REMOVAL_POLICIES: Record<string, RemovalPolicy> = {
  retain: RemovalPolicy.RETAIN,
  destroy: RemovalPolicy.DESTROY,
};

const RETENTION_DAYS = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

function contextString(node: Node, key: keyof typeof CONTEXT_DEFAULTS): string {
  const value: unknown = node.tryGetContext(key) ?? CONTEXT_DEFAULTS[key];
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(`Context "${key}" must be a string or a number, got ${JSON.stringify(value)}`);
  }
  return String(value).trim();
}

export function readIdentityConfig(node: Node): IdentityConfig {
  const senderEmail = contextString(node, 'senderEmail');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(senderEmail)) {
    throw new Error(`Context "senderEmail" must be an e-mail address, got "${senderEmail}"`);
  }

  const removalName = contextString(node, 'removalPolicy');
  const removalPolicy = REMOVAL_POLICIES[removalName];
  if (removalPolicy === undefined) {
    throw new Error(`Context "removalPolicy" must be "retain" or "destroy", got "${removalName}"`);
  }

  const days = Number(contextString(node, 'logRetentionDays'));
  if (!RETENTION_DAYS.has(days)) {
    throw new Error(
      `Context "logRetentionDays" must be one of ${[...RETENTION_DAYS].join(', ')} (CloudWatch Logs), got "${days}"`,
    );
  }

  const authRateLimitPerMinute = contextString(node, 'authRateLimitPerMinute');
  if (!/^[1-9][0-9]*$/.test(authRateLimitPerMinute)) {
    throw new Error(`Context "authRateLimitPerMinute" must be a positive integer, got "${authRateLimitPerMinute}"`);
  }

  return {
    senderEmail,
    issuerUrl: contextString(node, 'issuerUrl'),
    removalPolicy,
    logRetention: days as RetentionDays,
    authRateLimitPerMinute,
  };
}
