/**
 * Setup file of the http project: every DynamoDB call a route's handler makes
 * through the local gateway must be one its route row grants (tableActionsOf:
 * the IAM policy the CDK stack gives its function). DynamoDB Local enforces no
 * IAM, so without this a new repo call or transaction item works in every
 * test and is refused on AWS. A transaction needs the actions of its items
 * (there is no TransactWriteItems action in IAM). A violation fails the test file.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect } from 'vitest';
import { plantCorsRoutes, plantRouteList } from '#functions/plants/routes.ts';
import { trackInvocations } from '#local/gateway.ts';
import { type RouteDef, tableActionsOf } from '#shared/http/route.ts';
import { markObserved } from '#shared/store/direct-read.ts';
import { iamActionsOf } from './iam-actions.ts';

type Recorded = Map<string, { granted: Set<string>; used: Set<string> }>;

const RECORDED = Symbol.for('identity-service.dynamodb-actions');
const PATCHED = Symbol.for('identity-service.dynamodb-actions-patched');
const state = globalThis as { [RECORDED]?: Recorded; [PATCHED]?: boolean };
state[RECORDED] ??= new Map();

/**
 * What a route's function may do, as the stacks grant it: its row's actions; the plant store's CORS
 * routes may also Query the identity table's ORIGIN items (infra/plants-stack.ts).
 */
function grantedTo(route: RouteDef): Set<string> {
  const granted = new Set<string>(tableActionsOf(route));
  if (plantRouteList.includes(route) && plantCorsRoutes.includes(route.operationId)) granted.add('Query');
  return granted;
}

const currentRoute = trackInvocations();

// Every document client the handlers make (per process, on first use) records its calls by route.
if (!state[PATCHED]) {
  state[PATCHED] = true;
  const from = DynamoDBDocumentClient.from.bind(DynamoDBDocumentClient);
  DynamoDBDocumentClient.from = ((...args: Parameters<typeof from>) => {
    const doc = from(...args);
    doc.middlewareStack.add(
      (next, context) => async (call) => {
        const route = currentRoute();
        if (route) {
          const command = (context.commandName ?? '?').replace(/Command$/, '');
          const key = route.operationId;
          const seen = state[RECORDED]?.get(key) ?? { granted: grantedTo(route), used: new Set() };
          for (const action of iamActionsOf(command, call.input as Record<string, unknown>)) seen.used.add(action);
          state[RECORDED]?.set(key, seen);
        }
        return next(call);
      },
      { step: 'initialize', name: 'grantCheck' },
    );
    markObserved(doc);
    return doc;
  }) as typeof DynamoDBDocumentClient.from;
}

afterAll(() => {
  const recorded = state[RECORDED] ?? new Map();
  const ungranted = [...recorded.entries()].flatMap(([operationId, { granted, used }]) =>
    [...used].filter((action) => !granted.has(action)).map((action) => `${operationId}: ${action}`),
  );
  recorded.clear();
  expect(ungranted, 'DynamoDB actions a route uses that its row does not grant (IAM on AWS)').toEqual([]);
});
