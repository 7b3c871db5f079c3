/**
 * The IAM actions a DynamoDB call needs: what a route row's `table` must grant
 * (tableActionsOf). A transaction needs those of its items (IAM has no
 * TransactWriteItems action); every other call, its own.
 */
export function iamActionsOf(command: string, input: Record<string, unknown>): string[] {
  if (command === 'TransactWriteItems') {
    return (input.TransactItems as Record<string, unknown>[]).map((item) => {
      if (item.Put) return 'PutItem';
      if (item.Update) return 'UpdateItem';
      if (item.Delete) return 'DeleteItem';
      return 'ConditionCheckItem';
    });
  }
  if (command === 'TransactGetItems') return ['GetItem'];
  return [command];
}
