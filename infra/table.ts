import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE } from '#shared/store/table.ts';

/**
 * A service table from the one definition in shared/store/table.ts (the local
 * stack creates the same): string keys, its GSIs, TTL, on demand, PITR, and
 * deletion protection (DeleteTable refused, whoever calls it: console, CLI,
 * a script) unless the removal policy is `destroy`, which asks `cdk destroy`
 * to delete the table.
 */
export function serviceTable(scope: Construct, id: string, removalPolicy: RemovalPolicy): Table {
  const table = new Table(scope, id, {
    partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: TABLE.ttlAttribute,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
    removalPolicy,
  });
  for (const index of TABLE.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      // INCLUDE: the keys and the attributes the index's readers read, never a secret.
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...index.nonKeyAttributes],
    });
  }
  return table;
}
