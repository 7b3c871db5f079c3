import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { TABLE } from '#shared/store/table.ts';
import { acknowledgeBackupRoleFindings } from './nag.ts';

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
    // New items as written: the webhooks' dispatcher reads the activity items off it (infra/webhooks.ts).
    stream: StreamViewType.NEW_IMAGE,
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

/**
 * A daily AWS Backup of the table, kept `retentionDays` (7 unless the context says), in a vault of its own (README,
 * Restoring the table): beside point-in-time recovery (35 days of any second, same Region, same account), a backup
 * that a deleted table or a lost account does not take with it once `copyVaultArn` names a vault in another Region
 * or account. Each DynamoDB backup is a full copy of the table, billed as such: the recent ones are what PITR cannot
 * give, so a week of them by default (0.7 times the table's storage a month, against 3.5 for 35). The vault is kept
 * when the stack is destroyed, whatever the removal policy: its backups are the point of it.
 */
export class TableBackup extends Construct {
  readonly plan: BackupPlan;
  readonly vault: BackupVault;

  constructor(
    scope: Construct,
    id: string,
    props: { table: ITable; copyVaultArn: string | undefined; retentionDays: number },
  ) {
    super(scope, id);
    this.vault = new BackupVault(this, 'Vault', { removalPolicy: RemovalPolicy.RETAIN });
    this.plan = new BackupPlan(this, 'Plan', { backupVault: this.vault });
    this.plan.addRule(
      new BackupPlanRule({
        ruleName: 'daily',
        scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
        deleteAfter: Duration.days(props.retentionDays),
        ...(props.copyVaultArn && {
          copyActions: [
            {
              destinationBackupVault: BackupVault.fromBackupVaultArn(this, 'CopyVault', props.copyVaultArn),
              deleteAfter: Duration.days(props.retentionDays),
            },
          ],
        }),
      }),
    );
    const selection = this.plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(props.table)] });
    acknowledgeBackupRoleFindings(selection.grantPrincipal);
  }
}
