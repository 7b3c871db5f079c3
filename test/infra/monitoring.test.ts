import { isDeepStrictEqual } from 'node:util';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { PlantsStack } from '#infra/plants-stack.ts';
import { serviceTable } from '#infra/table.ts';
import { cdkContext } from './support/context.ts';
import { flatTemplate } from './support/flat-template.ts';
import { identityTemplate, testApp } from './support/synth.ts';

/**
 * The operator's view, the CDK part (infra/monitoring.ts, README: Operations): the alarm topic and its subscription, every
 * alarm (its metrics, threshold, periods and actions), the dashboard, the metrics' environment of the functions,
 * and active tracing. The values are written out here, not imported, so that a changed threshold fails a test.
 */

type Resource = { Type: string; Properties: Record<string, unknown> };
type Dimension = { Name: string; Value: unknown };
type Query = {
  Id: string;
  Expression?: string;
  Label?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions?: Dimension[] };
    Period: number;
    Stat: string;
  };
};

function identityStack(context: Record<string, unknown> = {}, id = 'Identity'): IdentityStack {
  const app = testApp(context);
  return new IdentityStack(app, id);
}

/** The Identity stack's template with `context` (shared with the other infra files), or under another stack name. */
const synth = (context: Record<string, unknown> = {}, id = 'Identity') =>
  id === 'Identity' ? identityTemplate(context) : flatTemplate(identityStack(context, id));

const template = synth();

function resources(t: Template, type: string): Record<string, Resource> {
  return t.findResources(type) as Record<string, Resource>;
}

function refId(value: unknown): string {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = v.Ref ?? v['Fn::GetAtt']?.[0];
  if (id === undefined) throw new Error(`Not a reference: ${JSON.stringify(value)}`);
  return id;
}

const onlyId = (t: Template, type: string): string => {
  const ids = Object.keys(resources(t, type));
  expect(ids, type).toHaveLength(1);
  return ids[0] as string;
};

/** The alarm topic: the Monitoring stack's (the Mail stack has the SES events topic: infra/mail.ts). */
const alarmTopicId = (t: Template): string => {
  const ids = Object.keys(resources(t, 'AWS::SNS::Topic')).filter((id) => id.startsWith('MonitoringAlarmTopic'));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
};

/**
 * The route functions, the SES events function (infra/mail.ts) and the webhooks' dispatcher and deliverer
 * (infra/webhooks.ts): every function the alarms watch.
 */
const FUNCTIONS = identityRouteList.length + 3;

/** The alarm whose construct id is `id` (logical id `Monitoring<id><hash>`). */
function alarmOf(t: Template, id: string): Resource {
  const found = Object.entries(resources(t, 'AWS::CloudWatch::Alarm')).filter(([logicalId]) =>
    new RegExp(`^Monitoring${id}[0-9A-F]{8}$`).test(logicalId),
  );
  expect(
    found.map(([logicalId]) => logicalId),
    id,
  ).toHaveLength(1);
  return (found[0] as [string, Resource])[1];
}

/** An alarm's metric queries: the math expression it returns (if any) and its metrics by id, dimensions as a map. */
function queriesOf(alarm: Resource): {
  expression: string | undefined;
  metrics: Record<
    string,
    { namespace: string; name: string; dimensions: Record<string, unknown>; stat: string; period: number }
  >;
} {
  const queries = alarm.Properties.Metrics as Query[];
  expect(queries.filter((q) => q.ReturnData !== false)).toHaveLength(1);
  const metrics: ReturnType<typeof queriesOf>['metrics'] = {};
  for (const q of queries) {
    if (!q.MetricStat) continue;
    const { Metric, Period, Stat } = q.MetricStat;
    metrics[q.Id] = {
      namespace: Metric.Namespace,
      name: Metric.MetricName,
      dimensions: Object.fromEntries((Metric.Dimensions ?? []).map((d) => [d.Name, d.Value])),
      stat: Stat,
      period: Period,
    };
  }
  return { expression: queries.find((q) => q.Expression !== undefined)?.Expression, metrics };
}

/** What every alarm has: ≥ threshold, missing data not breaching, the topic on ALARM and on OK, a description, no name. */
function expectAlarmBasics(t: Template, alarm: Resource): void {
  const topic = alarmTopicId(t);
  expect(alarm.Properties).toMatchObject({
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: topic }],
    OKActions: [{ Ref: topic }],
  });
  expect(alarm.Properties.AlarmName).toBeUndefined();
  expect(String(alarm.Properties.AlarmDescription).length).toBeGreaterThan(40);
}

const sumOfFilled = (ids: string[]) => ids.map((id) => `FILL(${id}, 0)`).join(' + ');

describe('Monitoring: the alarm topic', () => {
  it('is one topic, publishing over TLS only, that CloudWatch alarms of this account and region may publish to', () => {
    const topic = alarmTopicId(template);
    const policy = Object.values(resources(template, 'AWS::SNS::TopicPolicy')).find((p) =>
      isDeepStrictEqual(p.Properties.Topics, [{ Ref: topic }]),
    ) as Resource;
    expect(policy.Properties.Topics).toEqual([{ Ref: topic }]);
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toHaveLength(2);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: '*',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const allow = statements.find((s) => s.Effect === 'Allow') ?? {};
    expect(allow).toMatchObject({
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topic },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    // arn:<partition>:cloudwatch:<region>:<account>:alarm:* (an alarm's ARN has a colon before its name).
    const sourceArn = (allow.Condition as { ArnLike: Record<string, { 'Fn::Join': [string, unknown[]] }> }).ArnLike[
      'aws:SourceArn'
    ];
    expect(sourceArn?.['Fn::Join'][1]).toEqual([
      'arn:',
      { Ref: 'AWS::Partition' },
      ':cloudwatch:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ':alarm:*',
    ]);
  });

  it('has no subscription by default (alarmEmail "")', () => {
    expect(cdkContext.alarmEmail).toBe('');
    const subscriptions = Object.values(resources(template, 'AWS::SNS::Subscription'));
    expect(
      subscriptions.filter((s) => isDeepStrictEqual(s.Properties.TopicArn, { Ref: alarmTopicId(template) })),
    ).toEqual([]);
  });

  it('has an e-mail subscription to the alarmEmail context when set', () => {
    const t = synth({ alarmEmail: 'ops@example.com' });
    const topic = alarmTopicId(t);
    // The alarm topic's, beside the SES events function's subscription to its own topic.
    t.resourceCountIs('AWS::SNS::Subscription', 2);
    t.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topic },
    });
  });

  it('outputs the topic ARN, the dashboard name and its URL', () => {
    const outputs = template.findOutputs('*');
    expect(outputs.AlarmTopicArn?.Value).toEqual({ Ref: alarmTopicId(template) });
    const dashboard = onlyId(template, 'AWS::CloudWatch::Dashboard');
    expect(outputs.DashboardName?.Value).toEqual({ Ref: dashboard });
    expect(JSON.stringify(outputs.DashboardUrl?.Value)).toContain('#dashboards/dashboard/');
    expect(JSON.stringify(outputs.DashboardUrl?.Value)).toContain(JSON.stringify({ Ref: dashboard }));
  });
});

/** Lambda errors and throttles are watched ten functions an alarm: 7 groups for the 63 routes of today. */
const GROUPS = Math.ceil(identityRouteList.length / 10);

describe('Monitoring: alarms', () => {
  const alarmIds = Object.keys(resources(template, 'AWS::CloudWatch::Alarm')).map((id) =>
    id.replace(/^Monitoring/, '').replace(/[0-9A-F]{8}$/, ''),
  );

  it('are these: 5xx rate and p99 of three routes, Lambda errors and throttles in groups, DynamoDB, SES, two spikes', () => {
    expect(GROUPS).toBeGreaterThan(1);
    expect(alarmIds.sort()).toEqual(
      [
        'LoginServerErrorRate',
        'RefreshServerErrorRate',
        'GetMeServerErrorRate',
        'LoginLatencyP99',
        'RefreshLatencyP99',
        'GetMeLatencyP99',
        ...Array.from({ length: GROUPS }, (_, i) => [`LambdaErrors${i + 1}`, `LambdaThrottles${i + 1}`]).flat(),
        'TableThrottles',
        'SesBounceRate',
        'SesComplaintRate',
        'FailedLoginsSpike',
        'RefreshReuseSpike',
        'MailsFailed',
        'SesEventsNotRecorded',
        'WebhookDeliveriesGivenUp',
        'WebhookEventsNotDispatched',
      ].sort(),
    );
  });

  it('each notify the topic on ALARM and on OK, fire at or above their threshold, treat missing data as not breaching', () => {
    for (const alarm of Object.values(resources(template, 'AWS::CloudWatch::Alarm')))
      expectAlarmBasics(template, alarm);
  });

  it('each read at most 10 metrics (CloudWatch refuses more in one alarm)', () => {
    for (const alarm of Object.values(resources(template, 'AWS::CloudWatch::Alarm'))) {
      // An alarm on one plain metric (the dead-letter queue's) has no Metrics list.
      if (alarm.Properties.Metrics === undefined) continue;
      expect(Object.keys(queriesOf(alarm).metrics).length).toBeLessThanOrEqual(10);
    }
  });

  it('MailsFailed: every kind of mail SES refused for this deployment, summed by one Metrics Insights query, ≥ 1 in 5 minutes', () => {
    const alarm = alarmOf(template, 'MailsFailed');
    expect(alarm.Properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    const [query] = alarm.Properties.Metrics as { Expression: string; Period: number }[];
    expect(query?.Expression).toBe(
      `SELECT SUM(MailsFailed) FROM SCHEMA("IdentityService", kind, service) WHERE service = 'Identity'`,
    );
    expect(query?.Period).toBe(300);
    expect(String(alarm.Properties.AlarmDescription)).toMatch(/sandbox.*verified.*paused.*quota/s);
  });

  it('SesEventsNotRecorded: a bounce or complaint in the SES events function’s dead-letter queue', () => {
    const alarm = alarmOf(template, 'SesEventsNotRecorded');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      Threshold: 1,
    });
    const [queueId] = Object.keys(resources(template, 'AWS::SQS::Queue'));
    expect(alarm.Properties.Dimensions).toEqual([
      { Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } },
    ]);
    const fn = Object.values(resources(template, 'AWS::Lambda::Function')).find((f) =>
      String(f.Properties.Description).startsWith('SES bounce'),
    );
    expect(fn?.Properties.DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
  });

  it.each([
    ['LoginServerErrorRate', 'login'],
    ['RefreshServerErrorRate', 'refresh'],
    ['GetMeServerErrorRate', 'getMe'],
  ])('%s: 100 × (server_error + unavailable) / Requests of route %s ≥ 5 %, 2 of 3 five-minute periods', (id, route) => {
    const alarm = alarmOf(template, id);
    expect(alarm.Properties).toMatchObject({ Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const { expression, metrics } = queriesOf(alarm);
    expect(expression).toBe(`100 * (FILL(${route}ServerError, 0) + FILL(${route}Unavailable, 0)) / ${route}Requests`);
    const requests = (dimensions: Record<string, string>) => ({
      namespace: 'IdentityService',
      name: 'Requests',
      dimensions: { service: 'Identity', route, ...dimensions },
      stat: 'Sum',
      period: 300,
    });
    expect(metrics).toEqual({
      [`${route}Requests`]: requests({}),
      [`${route}ServerError`]: requests({ outcome: 'server_error' }),
      [`${route}Unavailable`]: requests({ outcome: 'unavailable' }),
    });
    expect(String(alarm.Properties.AlarmDescription)).toContain(
      { login: 'POST /api/v1/auth/login', refresh: 'POST /api/v1/auth/refresh', getMe: 'GET /api/v1/users/me' }[route],
    );
  });

  it.each([
    ['LoginLatencyP99', 'login', 1000],
    ['RefreshLatencyP99', 'refresh', 500],
    ['GetMeLatencyP99', 'getMe', 300],
  ])('%s: p99 of Latency of route %s ≥ %i ms, 2 of 3 five-minute periods', (id, route, threshold) => {
    const alarm = alarmOf(template, id);
    expect(alarm.Properties).toMatchObject({ Threshold: threshold, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const { expression, metrics } = queriesOf(alarm);
    expect(expression).toBeUndefined();
    expect(Object.values(metrics)).toEqual([
      {
        namespace: 'IdentityService',
        name: 'Latency',
        dimensions: { service: 'Identity', route },
        stat: 'p99',
        period: 300,
      },
    ]);
  });

  it.each([
    ['LambdaErrors', 'Errors', 1],
    ['LambdaThrottles', 'Throttles', 10],
  ])(
    '%s1…7: the sum of AWS/Lambda %s of every function of the stack, each in one group, ≥ %i in 5 minutes',
    (prefix, name, threshold) => {
      const functionIds = Object.keys(resources(template, 'AWS::Lambda::Function'));
      expect(functionIds).toHaveLength(FUNCTIONS);
      const watched: string[] = [];
      for (let n = 1; n <= GROUPS; n++) {
        const alarm = alarmOf(template, `${prefix}${n}`);
        expect(alarm.Properties).toMatchObject({ Threshold: threshold, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
        const { expression, metrics } = queriesOf(alarm);
        expect(expression).toBe(sumOfFilled(Object.keys(metrics)));
        for (const metric of Object.values(metrics)) {
          expect(metric).toMatchObject({ namespace: 'AWS/Lambda', name, stat: 'Sum', period: 300 });
          expect(Object.keys(metric.dimensions)).toEqual(['FunctionName']);
          watched.push(refId(metric.dimensions.FunctionName));
        }
      }
      expect(watched.sort()).toEqual(functionIds.sort());
    },
  );

  it('TableThrottles: the sum of Read and WriteThrottleEvents of the table and of its index gsi1 ≥ 10 in 5 minutes', () => {
    const alarm = alarmOf(template, 'TableThrottles');
    expect(alarm.Properties).toMatchObject({ Threshold: 10, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    const table = { Ref: onlyId(template, 'AWS::DynamoDB::Table') };
    const { expression, metrics } = queriesOf(alarm);
    expect(expression).toBe(sumOfFilled(Object.keys(metrics)));
    const seen = Object.values(metrics).map((m) => ({ ...m }));
    const throttles = (name: string, dimensions: Record<string, unknown>) => ({
      namespace: 'AWS/DynamoDB',
      name,
      dimensions,
      stat: 'Sum',
      period: 300,
    });
    expect(seen).toHaveLength(4);
    expect(seen).toEqual(
      expect.arrayContaining([
        throttles('ReadThrottleEvents', { TableName: table }),
        throttles('WriteThrottleEvents', { TableName: table }),
        throttles('ReadThrottleEvents', { TableName: table, GlobalSecondaryIndexName: 'gsi1' }),
        throttles('WriteThrottleEvents', { TableName: table, GlobalSecondaryIndexName: 'gsi1' }),
      ]),
    );
  });

  it.each([
    ['SesBounceRate', 'Reputation.BounceRate', 0.025],
    ['SesComplaintRate', 'Reputation.ComplaintRate', 0.0005],
  ])('%s: AWS/SES %s (account-wide, no dimension), hourly maximum ≥ %d', (id, name, threshold) => {
    const alarm = alarmOf(template, id);
    expect(alarm.Properties).toMatchObject({ Threshold: threshold, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    const { expression, metrics } = queriesOf(alarm);
    expect(expression).toBeUndefined();
    expect(Object.values(metrics)).toEqual([
      { namespace: 'AWS/SES', name, dimensions: {}, stat: 'Maximum', period: 3600 },
    ]);
  });

  it.each([
    ['FailedLoginsSpike', 'FailedLogins', 100],
    ['RefreshReuseSpike', 'RefreshReuse', 10],
  ])('%s: the sum of the %s counter (dimension service only) in 5 minutes ≥ %i (cdk.json)', (id, name, threshold) => {
    const alarm = alarmOf(template, id);
    expect(alarm.Properties).toMatchObject({ Threshold: threshold, EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    const { expression, metrics } = queriesOf(alarm);
    expect(expression).toBeUndefined();
    expect(Object.values(metrics)).toEqual([
      { namespace: 'IdentityService', name, dimensions: { service: 'Identity' }, stat: 'Sum', period: 300 },
    ]);
  });

  it('takes the spike thresholds from the failedLoginsAlarmThreshold and refreshReuseAlarmThreshold contexts', () => {
    const t = synth({ failedLoginsAlarmThreshold: 250, refreshReuseAlarmThreshold: '3' });
    expect(alarmOf(t, 'FailedLoginsSpike').Properties.Threshold).toBe(250);
    expect(alarmOf(t, 'RefreshReuseSpike').Properties.Threshold).toBe(3);
  });

  it("reads the metrics of this deployment only: service is the stack's name", () => {
    const t = synth({}, 'IdentityStaging');
    const { metrics } = queriesOf(alarmOf(t, 'LoginServerErrorRate'));
    for (const metric of Object.values(metrics)) expect(metric.dimensions.service).toBe('IdentityStaging');
    expect(Object.values(queriesOf(alarmOf(t, 'FailedLoginsSpike')).metrics)[0]?.dimensions).toEqual({
      service: 'IdentityStaging',
    });
  });
});

describe('Monitoring: context validation', () => {
  it.each([
    [{ alarmEmail: 'ops' }, /Context "alarmEmail" must be an e-mail address/],
    [{ alarmEmail: 'ops@example' }, /Context "alarmEmail" must be an e-mail address/],
    [{ alarmEmail: 'two words@example.com' }, /Context "alarmEmail" must be an e-mail address/],
    [{ tracing: 'passive' }, /Context "tracing" must be "active" or "off"/],
    [{ tracing: true }, /Context "tracing" must be/],
    [{ failedLoginsAlarmThreshold: 0 }, /Context "failedLoginsAlarmThreshold" must be a positive integer/],
    [{ failedLoginsAlarmThreshold: 'many' }, /Context "failedLoginsAlarmThreshold" must be a positive integer/],
    [{ failedLoginsAlarmThreshold: 2.5 }, /Context "failedLoginsAlarmThreshold" must be a positive integer/],
    [{ refreshReuseAlarmThreshold: -1 }, /Context "refreshReuseAlarmThreshold" must be a positive integer/],
    [{ refreshReuseAlarmThreshold: '' }, /Context "refreshReuseAlarmThreshold" must be a positive integer/],
  ])('refuses %j', (context, message) => {
    expect(() => identityStack(context)).toThrow(message);
  });

  it('has the defaults of cdk.json: no alarm e-mail, active tracing, thresholds 100 and 10', () => {
    expect(cdkContext).toMatchObject({
      alarmEmail: '',
      tracing: 'active',
      failedLoginsAlarmThreshold: 100,
      refreshReuseAlarmThreshold: 10,
    });
    // And the same without cdk.json (CONTEXT_DEFAULTS): the same alarms, no subscription, tracing on.
    const bare = flatTemplate(
      new IdentityStack(new App({ context: { example: true, 'aws:cdk:bundling-stacks': [] } }), 'Identity'),
    );
    // The SES events function's subscription only (infra/mail.ts).
    bare.resourceCountIs('AWS::SNS::Subscription', 1);
    expect(alarmOf(bare, 'FailedLoginsSpike').Properties.Threshold).toBe(100);
    expect(alarmOf(bare, 'RefreshReuseSpike').Properties.Threshold).toBe(10);
    for (const fn of Object.values(resources(bare, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });
});

/** The dashboard's body, its references written `{LogicalId}`, parsed. */
function dashboardBody(t: Template): { widgets: { type: string; properties: Record<string, unknown> }[] } {
  const dashboard = resources(t, 'AWS::CloudWatch::Dashboard')[onlyId(t, 'AWS::CloudWatch::Dashboard')] as Resource;
  const join = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return JSON.parse(join[1].map((part) => (typeof part === 'string' ? part : `{${refId(part)}}`)).join(''));
}

describe('Monitoring: the dashboard', () => {
  const body = dashboardBody(template);
  /** The one widget whose title is `title`, or starts with it. */
  const widget = (title: string) => {
    const exact = body.widgets.filter((w) => w.properties.title === title);
    const found = exact.length > 0 ? exact : body.widgets.filter((w) => String(w.properties.title).startsWith(title));
    expect(
      found.map((w) => w.properties.title),
      title,
    ).toHaveLength(1);
    return (found[0] as (typeof body.widgets)[number]).properties;
  };
  /** A graph's metrics as `Namespace/MetricName dim=value …` (expressions as `= <expression>`), and their options. */
  const metricsOf = (properties: Record<string, unknown>) =>
    (properties.metrics as unknown[][]).map((entry) => {
      const options = (typeof entry.at(-1) === 'object' ? entry.at(-1) : {}) as Record<string, unknown>;
      if ('expression' in options) return { name: `= ${options.expression}`, options };
      const [namespace, metricName, ...rest] = entry.filter((e) => typeof e === 'string') as string[];
      const dims = [];
      for (let i = 0; i < rest.length; i += 2) dims.push(`${rest[i]}=${rest[i + 1]}`);
      return { name: [`${namespace}/${metricName}`, ...dims].join(' '), options };
    });

  it('is one dashboard named <stack>-<region>', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: { 'Fn::Join': ['', ['Identity-', { Ref: 'AWS::Region' }]] },
    });
  });

  it('shows the state of every alarm', () => {
    const alarms = widget('Alarms').alarms as string[];
    expect(body.widgets.find((w) => w.properties.title === 'Alarms')?.type).toBe('alarm');
    expect(alarms.map((a) => a.slice(1, -1)).sort()).toEqual(
      Object.keys(resources(template, 'AWS::CloudWatch::Alarm')).sort(),
    );
  });

  it.each([
    ['login', 'POST /api/v1/auth/login'],
    ['loginVerify', 'POST /api/v1/auth/login/verify'],
  ])('graphs the sign-ins of %s per minute, by outcome', (route, key) => {
    const metrics = metricsOf(widget(`Sign-ins per minute by outcome: ${key}`));
    const outcomes = [
      'success',
      'invalid_request',
      'unauthenticated',
      'forbidden',
      'not_found',
      'conflict',
      'rate_limited',
      'server_error',
      'unavailable',
    ];
    expect(metrics.map((m) => m.name).sort()).toEqual(
      outcomes.map((o) => `IdentityService/Requests outcome=${o} route=${route} service=Identity`).sort(),
    );
    for (const m of metrics) expect(m.options).toMatchObject({ period: 60, stat: 'Sum' });
  });

  it('graphs the failure and abuse counters per minute, and the business counters per hour', () => {
    const abuse = metricsOf(widget('Failures and abuse per minute'));
    expect(abuse.map((m) => m.name)).toEqual(
      ['FailedLogins', 'Lockouts', 'RateLimited', 'RefreshReuse', 'ReauthRequired', 'MailsSuppressed'].map(
        (c) => `IdentityService/${c} service=Identity`,
      ),
    );
    for (const m of abuse) expect(m.options).toMatchObject({ period: 60, stat: 'Sum' });
    const business = metricsOf(widget('Sign-ups and sessions per hour'));
    expect(business.map((m) => m.name)).toEqual(
      ['Signups', 'SignupsVerified', 'SessionsStarted'].map((c) => `IdentityService/${c} service=Identity`),
    );
    for (const m of business) expect(m.options).toMatchObject({ period: 3600, stat: 'Sum' });
  });

  it('graphs the 5xx rate and the p99 latency of login, refresh and getMe, with the alarm thresholds', () => {
    const rates = widget('5xx rate');
    expect(
      metricsOf(rates)
        .filter((m) => m.name.startsWith('='))
        .map((m) => m.name),
    ).toEqual(
      ['login', 'refresh', 'getMe'].map(
        (r) => `= 100 * (FILL(${r}ServerError, 0) + FILL(${r}Unavailable, 0)) / ${r}Requests`,
      ),
    );
    expect(rates.annotations).toEqual({ horizontal: [{ value: 5, label: 'alarm', yAxis: 'left' }] });
    const latency = widget('p99 latency');
    expect(metricsOf(latency).map((m) => [m.name, m.options.stat])).toEqual(
      ['login', 'refresh', 'getMe'].map((r) => [`IdentityService/Latency route=${r} service=Identity`, 'p99']),
    );
    expect((latency.annotations as { horizontal: { value: number }[] }).horizontal.map((a) => a.value)).toEqual([
      1000, 500, 300,
    ]);
  });

  it('graphs the Lambda errors and throttles of every function, labelled by operationId', () => {
    const functionIds = Object.keys(resources(template, 'AWS::Lambda::Function')).sort();
    for (const [title, name] of [
      ['Lambda errors', 'Errors'],
      ['Lambda throttles', 'Throttles'],
    ] as const) {
      const metrics = metricsOf(widget(title));
      expect(metrics.map((m) => m.name.replace(/=\{(\w+)\}$/, '=$1')).sort()).toEqual(
        functionIds.map((id) => `AWS/Lambda/${name} FunctionName=${id}`).sort(),
      );
      expect(metrics.map((m) => m.options.label).sort()).toEqual(
        [...identityRouteList.map((r) => r.operationId), 'sesEvents', 'webhookDispatch', 'webhookDeliver'].sort(),
      );
    }
  });

  it('graphs the DynamoDB throttles, the SES reputation rates and the HTTP API answers', () => {
    const table = onlyId(template, 'AWS::DynamoDB::Table');
    expect(metricsOf(widget('DynamoDB throttle')).map((m) => m.name)).toEqual([
      '= FILL(read0, 0) + FILL(write0, 0) + FILL(read1, 0) + FILL(write1, 0)',
      `AWS/DynamoDB/ReadThrottleEvents TableName={${table}}`,
      `AWS/DynamoDB/WriteThrottleEvents TableName={${table}}`,
      `AWS/DynamoDB/ReadThrottleEvents GlobalSecondaryIndexName=gsi1 TableName={${table}}`,
      `AWS/DynamoDB/WriteThrottleEvents GlobalSecondaryIndexName=gsi1 TableName={${table}}`,
    ]);
    expect(metricsOf(widget('SES reputation')).map((m) => m.name)).toEqual([
      'AWS/SES/Reputation.BounceRate',
      'AWS/SES/Reputation.ComplaintRate',
    ]);
    const api = onlyId(template, 'AWS::ApiGatewayV2::Api');
    expect(metricsOf(widget('HTTP API per minute')).map((m) => m.name)).toEqual(
      ['Count', '4xx', '5xx'].map((n) => `AWS/ApiGateway/${n} ApiId={${api}}`),
    );
  });
});

describe('Monitoring: the functions', () => {
  const XRAY = { Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' };
  const rolePolicies = (t: Template, fn: Resource) => {
    const role = resources(t, 'AWS::IAM::Role')[refId(fn.Properties.Role)] as Resource;
    return (role.Properties.Policies as { PolicyDocument: { Statement: unknown[] } }[]).flatMap(
      (p) => p.PolicyDocument.Statement,
    );
  };
  const plantsTemplate = (context: Record<string, unknown> = {}) => {
    const app = testApp(context);
    const identityTable = serviceTable(new Stack(app, 'Identity'), 'Table', RemovalPolicy.RETAIN);
    return Template.fromStack(
      new PlantsStack(app, 'Plants', { identityBaseUrl: 'https://id.example.com/api/v1', identityTable }),
    );
  };
  const plants = plantsTemplate();

  it.each([
    ['Identity', template, 'Identity'],
    ['Plants', plants, 'Plants'],
  ] as const)(
    "%s: every function is told its service (the stack name), and nothing of its namespace (its handler's own)",
    (_, t, service) => {
      const fns = Object.values(resources(t, 'AWS::Lambda::Function'));
      expect(fns.length).toBeGreaterThan(0);
      for (const fn of fns) {
        expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
          SERVICE_NAME: service,
        });
        // No library's variables either: the handler writes its metrics itself (shared/http/request-metrics.ts).
        expect(
          Object.keys((fn.Properties.Environment as { Variables: object }).Variables).filter((name) =>
            name.startsWith('POWERTOOLS_'),
          ),
        ).toEqual([]);
      }
    },
  );

  it.each([
    ['Identity', template],
    ['Plants', plants],
  ] as const)(
    '%s: every function has active tracing, its role the X-Ray statement inline, and no extra IAM policy',
    (_, t) => {
      const fns = Object.values(resources(t, 'AWS::Lambda::Function'));
      for (const fn of fns) {
        expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
        expect(rolePolicies(t, fn).filter((s) => isDeepStrictEqual(s, XRAY))).toHaveLength(1);
      }
      // The statement is inline: tracing adds no AWS::IAM::Policy (Tracing.ACTIVE would add one per function).
      t.resourceCountIs('AWS::IAM::Policy', 0);
    },
  );

  it.each([
    ['Identity', () => synth({ tracing: 'off' })],
    ['Plants', () => plantsTemplate({ tracing: 'off' })],
  ] as const)('%s with tracing "off": no tracing config and no X-Ray statement', (_, make) => {
    const t = make();
    const fns = Object.values(resources(t, 'AWS::Lambda::Function'));
    expect(fns.length).toBeGreaterThan(0);
    for (const fn of fns) {
      expect(fn.Properties.TracingConfig).toBeUndefined();
      expect(JSON.stringify(rolePolicies(t, fn))).not.toContain('xray:');
    }
  });

  it('adds no resource per function for tracing and monitoring, but the alarms of each ten functions', () => {
    const count = (t: Template) => Object.keys(t.toJSON().Resources ?? {}).length;
    // The alarms: Lambda errors and throttles (two per ten functions) and a fixed rest (three routes' 5xx rate and
    // p99, the table, SES's two rates, two spikes, failed mails, unrecorded SES events, the webhooks' two dead-letter
    // queues). Every template's resources are counted by test/infra/quotas.test.ts.
    const alarms = 3 + 3 + 2 * Math.ceil(FUNCTIONS / 10) + 1 + 2 + 2 + 2 + 2;
    expect(Object.keys(resources(template, 'AWS::CloudWatch::Alarm'))).toHaveLength(alarms);
    expect(count(synth({ tracing: 'off' }))).toBe(count(template));
    expect(count(synth({ alarmEmail: 'ops@example.com' }))).toBe(count(template) + 1);
  });
});
