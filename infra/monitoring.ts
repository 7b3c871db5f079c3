import { ArnFormat, Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type HorizontalAnnotation,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BASE_PATH, type IdentityRouteId, identityRoutes } from '#functions/routes.ts';
import { routeKey } from '#shared/http/route.ts';
import {
  BUSINESS_COUNTERS,
  type Counter,
  IDENTITY_METRICS_NAMESPACE,
  LATENCY,
  MAIL_KIND_DIMENSION,
  MAILS_FAILED,
  OUTCOME_DIMENSION,
  type Outcome,
  REQUESTS,
  ROUTE_DIMENSION,
  SECURITY_COUNTERS,
  SERVICE_DIMENSION,
} from '#shared/metrics.ts';
import { TABLE } from '#shared/store/table.ts';
import { acknowledgeAlarmTopicFindings } from './nag.ts';

/**
 * The operator's view of the identity service (README, Operations): one SNS topic that every alarm
 * notifies (on ALARM and back to OK), the alarms below and one dashboard. The functions' own metrics are the
 * request metrics they write in Embedded Metric Format (shared/metrics.ts, with the dimension `service` = this
 * stack's name); the rest are AWS's (Lambda, DynamoDB, SES, API Gateway).
 */

/** Every alarm's evaluation period, but the SES reputation's (an hour: those rates move slowly). */
const PERIOD = Duration.minutes(5);
/** The period of the dashboard's "per minute" graphs. */
const MINUTE = Duration.minutes(1);

/**
 * The routes a user waits on most, each with its p99 latency alarm (`Latency` is the handler's own time, cold
 * start excluded: shared/http/handler.ts). About three times the local benchmark's p99 under load (bench/NOTES.md,
 * "Numbers behind the code"), which leaves room for a DynamoDB tail and a signing key decrypted by KMS on a new
 * instance; past it, users notice.
 * - login verifies an argon2id hash then signs tokens: 1 s is slow.
 * - refresh is three DynamoDB round trips and a signature: 500 ms.
 * - getMe is one DynamoDB round trip: 300 ms.
 */
const WATCHED_ROUTES = [
  { route: 'login', id: 'Login', p99Ms: 1000 },
  { route: 'refresh', id: 'Refresh', p99Ms: 500 },
  { route: 'getMe', id: 'GetMe', p99Ms: 300 },
] as const satisfies readonly { route: IdentityRouteId; id: string; p99Ms: number }[];

/** The 5xx rate of a watched route (in %) at or above which its alarm fires, 2 periods of 3. */
const SERVER_ERROR_RATE_PERCENT = 5;

/**
 * SES reviews an account at a bounce rate of 5 % (and may pause its sending at 10 %), and at a complaint rate
 * of 0.1 % (pause at 0.5 %): the alarms fire at half the review level, while there is time to act.
 */
const SES_BOUNCE_RATE = 0.025;
const SES_COMPLAINT_RATE = 0.0005;

/**
 * Lambda errors (an invocation that failed: an uncaught exception, a timeout, out of memory, a failed init) in 5
 * minutes, across a group of functions. The handlers answer every failure themselves (a 5xx answer is not a Lambda
 * error), so one is already a bug or an outage.
 */
const LAMBDA_ERRORS_THRESHOLD = 1;
/**
 * Lambda throttles in 5 minutes, across a group. The argon2 functions' reserved concurrency cuts a login flood on
 * purpose; a few throttles at a peak are that working, more is a flood or too little concurrency.
 */
const LAMBDA_THROTTLES_THRESHOLD = 10;
/** Mails SES refused in 5 minutes: each one is a user waiting for a code that never comes. */
const MAILS_FAILED_THRESHOLD = 1;
/** DynamoDB throttle events (reads and writes, table and indexes) in 5 minutes; the SDK retries a few unseen. */
const TABLE_THROTTLES_THRESHOLD = 10;
/**
 * A metric-math alarm may read at most 10 metrics (CloudWatch's limit): the functions' Errors and Throttles are
 * watched in groups of this many. A Metrics Insights query could read them all in one alarm, but only if its WHERE
 * picked exactly this stack's functions: their names are CloudFormation's (`<stack>-<id>-<random>`), the documented
 * WHERE compares a dimension with one value (`=`, `!=`, AND; no prefix match), and sixty-odd names spelled out
 * exceed an expression's 2,048 characters.
 */
const FUNCTIONS_PER_ALARM = 10;

/** Every outcome (shared/metrics.ts), each with its dashboard label: a new outcome fails to compile until it is here. */
const OUTCOME_LABELS: Record<Outcome, string> = {
  success: 'success',
  invalid_request: 'invalid request (4xx)',
  unauthenticated: 'unauthenticated (401)',
  forbidden: 'forbidden (403)',
  not_found: 'not found (404)',
  conflict: 'conflict (409)',
  rate_limited: 'rate limited (429)',
  server_error: 'server error (5xx)',
  unavailable: 'unavailable (503)',
};
const OUTCOMES = Object.keys(OUTCOME_LABELS) as Outcome[];

export interface MonitoringProps {
  /** The `service` dimension of the functions' metrics: the Identity stack's name (SERVICE_NAME). */
  serviceName: string;
  /** The route functions by operationId (addRouteFunctions): their Lambda errors and throttles. */
  functions: ReadonlyMap<string, IFunction>;
  table: ITable;
  api: HttpApi;
  /** An e-mail subscription to the alarm topic (context `alarmEmail`); none when undefined. */
  alarmEmail: string | undefined;
  /** The SES events function's dead-letter queue (infra/mail.ts): an alarm fires when an event lands there. */
  mailDeadLetters?: IQueue;
  /** The webhooks' dead-letter queues (infra/webhooks.ts): deliveries given up after 24 hours, stream batches set aside. */
  webhookDeadLetters?: { deliveries: IQueue; dispatch: IQueue };
  /** The spike alarms' thresholds, per 5 minutes (contexts `failedLoginsAlarmThreshold`, `refreshReuseAlarmThreshold`). */
  thresholds: { failedLogins: number; refreshReuse: number };
}

export class Monitoring extends Construct {
  /** Every alarm notifies it. */
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  readonly dashboardUrl: string;
  /** The `service` dimension of the functions' metrics: the stack's name (SERVICE_NAME). */
  private readonly service: string;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.service = props.serviceName;

    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `${this.service} alarms`,
      // Publishing over TLS only (cdk-nag SNS3). That makes a topic policy, which replaces SNS's default one, so
      // CloudWatch is allowed to publish by name: the alarms of this account and region only.
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          // arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    acknowledgeAlarmTopicFindings(this.topic);
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.action = new SnsAction(this.topic);

    const errorRates = WATCHED_ROUTES.map(({ route, id: routeId }) => {
      const rate = this.serverErrorRate(operationIdOf(route));
      this.alarm(`${routeId}ServerErrorRate`, rate, {
        threshold: SERVER_ERROR_RATE_PERCENT,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        description:
          `${this.keyOf(route)}: ${SERVER_ERROR_RATE_PERCENT} % or more of its answers were 5xx (500 INTERNAL or 503 UNAVAILABLE) in 2 of the last 3 five-minute periods. ` +
          'Look at the function\'s errors (Logs Insights: outcome "server_error" or "unavailable") and at the DynamoDB throttles.',
      });
      return rate;
    });

    const latencies = WATCHED_ROUTES.map(({ route, id: routeId, p99Ms }) => {
      const p99 = this.requestMetric(LATENCY, operationIdOf(route), {
        statistic: Stats.p(99),
        label: `${route} p99`,
      });
      this.alarm(`${routeId}LatencyP99`, p99, {
        threshold: p99Ms,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        description:
          `${this.keyOf(route)}: its p99 latency was ${p99Ms} ms or more in 2 of the last 3 five-minute periods. ` +
          'Look at its slowest requests (X-Ray traces, the summary lines) and at DynamoDB and KMS latency.',
      });
      return p99;
    });

    // Lambda errors and throttles of every function of the stack, in groups (FUNCTIONS_PER_ALARM).
    const functions = [...props.functions.entries()];
    const groups: [string, IFunction][][] = [];
    for (let i = 0; i < functions.length; i += FUNCTIONS_PER_ALARM)
      groups.push(functions.slice(i, i + FUNCTIONS_PER_ALARM));
    groups.forEach((group, index) => {
      const names = group.map(([operationId]) => operationId).join(', ');
      this.alarm(
        `LambdaErrors${index + 1}`,
        sumOf(group, (fn) => fn.metricErrors(), `Lambda errors: ${names}`),
        {
          threshold: LAMBDA_ERRORS_THRESHOLD,
          evaluationPeriods: 1,
          description:
            `A function failed (uncaught exception, timeout, out of memory or a failed init) in the last 5 minutes: one of ${names}. ` +
            'Find it on the dashboard ("Lambda errors") and read its log group; after a deploy, roll back.',
        },
      );
      this.alarm(
        `LambdaThrottles${index + 1}`,
        sumOf(group, (fn) => fn.metricThrottles(), `Lambda throttles: ${names}`),
        {
          threshold: LAMBDA_THROTTLES_THRESHOLD,
          evaluationPeriods: 1,
          description:
            `Lambda refused ${LAMBDA_THROTTLES_THRESHOLD} or more invocations for want of concurrency in the last 5 minutes: one of ${names}. ` +
            "A login flood meets the argon2 functions' reserved concurrency by design; otherwise raise the account's concurrency quota.",
        },
      );
    });

    const tableThrottles = this.tableThrottles(props.table);
    this.alarm('TableThrottles', tableThrottles, {
      threshold: TABLE_THROTTLES_THRESHOLD,
      evaluationPeriods: 1,
      description:
        `DynamoDB throttled ${TABLE_THROTTLES_THRESHOLD} or more reads or writes on the table or its indexes in the last 5 minutes; once the SDK's retries run out, requests answer 503 UNAVAILABLE. ` +
        'An on-demand table throttles a hot partition (1,000 writes/s, 3,000 reads/s) or traffic above twice its previous peak: turn on CloudWatch Contributor Insights on the table to find the key.',
    });

    const bounceRate = sesReputation('Reputation.BounceRate', 'bounce rate');
    this.alarm('SesBounceRate', bounceRate, {
      threshold: SES_BOUNCE_RATE,
      evaluationPeriods: 1,
      description:
        `The account's SES bounce rate reached ${SES_BOUNCE_RATE * 100} % (SES reviews the account at 5 %, may pause sending at 10 %). ` +
        'Find the tenant mailing bad addresses: MailsSuppressed, the mail logs; SES adds hard bounces to its suppression list.',
    });
    const complaintRate = sesReputation('Reputation.ComplaintRate', 'complaint rate');
    this.alarm('SesComplaintRate', complaintRate, {
      threshold: SES_COMPLAINT_RATE,
      evaluationPeriods: 1,
      description:
        `The account's SES complaint rate reached ${SES_COMPLAINT_RATE * 100} % (SES reviews the account at 0.1 %, may pause sending at 0.5 %). ` +
        'Find the tenant whose users mark its mail as spam (invitations, codes nobody asked for) and its mail budget.',
    });

    this.alarm('FailedLoginsSpike', this.counter('FailedLogins', PERIOD), {
      threshold: props.thresholds.failedLogins,
      evaluationPeriods: 1,
      description:
        `${props.thresholds.failedLogins} or more refused sign-in credentials in 5 minutes (context failedLoginsAlarmThreshold): credential stuffing or a broken client. ` +
        'Per-IP and per-account limits and lockouts are in place; find the clients in the summary lines (Logs Insights on the login function\'s log: message "request", outcome "unauthenticated", stats count(*) by ip: the viewer\'s address, which the API\'s access log does not have behind CloudFront) and consider a WAF rate rule.',
    });
    this.alarm('RefreshReuseSpike', this.counter('RefreshReuse', PERIOD), {
      threshold: props.thresholds.refreshReuse,
      evaluationPeriods: 1,
      description:
        `${props.thresholds.refreshReuse} or more rotated refresh tokens presented again in 5 minutes (context refreshReuseAlarmThreshold): stolen refresh tokens, or a client that retries with an old one. ` +
        'Each session is revoked automatically; look at the activity log of the users concerned.',
    });

    // Mail that SES refused (shared/metrics.ts, MAILS_FAILED by kind): a Metrics Insights query sums every kind of this
    // deployment, whatever kinds there are (a math expression may read 10 metrics, and there are more kinds).
    const mailsFailed = new MathExpression({
      expression: `SELECT SUM(${MAILS_FAILED}) FROM SCHEMA("${IDENTITY_METRICS_NAMESPACE}", ${MAIL_KIND_DIMENSION}, ${SERVICE_DIMENSION}) WHERE ${SERVICE_DIMENSION} = '${this.service}'`,
      usingMetrics: {},
      period: PERIOD,
      label: 'Mails SES refused',
    });
    this.alarm('MailsFailed', mailsFailed, {
      threshold: MAILS_FAILED_THRESHOLD,
      evaluationPeriods: 1,
      description:
        'SES refused to send a mail in the last 5 minutes: a user is waiting for a code that will not come (the answer said it was sent). ' +
        "The function's log says which kind and SES's error (errorName). MessageRejected or a sandbox message: the account is in the SES sandbox (request production access) or the recipient is unverified; " +
        'MailFromDomainNotVerified or an identity error: the sender identity is not verified in this region (the DNS records of the SenderDnsRecord outputs); ' +
        'AccountSendingPausedException: SES paused the account (bounce or complaint rate: see SesBounceRate, SesComplaintRate and the SES console); ' +
        "Throttling or a sending quota error: the account's send rate or daily quota (SES console, Account dashboard), raise it with AWS.",
    });
    if (props.webhookDeadLetters) {
      const visible = (queue: IQueue) =>
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM });
      this.alarm('WebhookDeliveriesGivenUp', visible(props.webhookDeadLetters.deliveries), {
        threshold: 1,
        evaluationPeriods: 1,
        description:
          "A webhook delivery failed for 24 hours and was given up (the deliveries' dead-letter queue holds it, 14 days): a tenant's receiver is down or refusing, and the endpoint was turned off if nothing got through since (its creator was mailed). " +
          "The WebhookDeliver function's log and the endpoint's delivery log say why; the tenant replays once its receiver works. A message here with a recent first attempt means the deliverer itself failed (its log: the table or KMS).",
      });
      this.alarm('WebhookEventsNotDispatched', visible(props.webhookDeadLetters.dispatch), {
        threshold: 1,
        evaluationPeriods: 1,
        description:
          "A batch of the table's stream could not be made into webhook events after 10 retries (the dispatch dead-letter queue holds where it was, 14 days): those events were not sent. " +
          "Read the WebhookDispatch function's log for the cause (the table, SQS or EventBridge); once fixed, tenants replay the time it covers from the console.",
      });
    }
    if (props.mailDeadLetters) {
      this.alarm(
        'SesEventsNotRecorded',
        props.mailDeadLetters.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM }),
        {
          threshold: 1,
          evaluationPeriods: 1,
          description:
            "A bounce or complaint event could not be recorded after Lambda's retries (the SES events function's dead-letter queue holds it, 14 days): mail may still go to an address that bounced. " +
            "Read the SesEvents function's log for the cause; once fixed, redrive the messages to the topic or delete them.",
        },
      );
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboards are global to the account: the region keeps two regions' deployments apart.
      dashboardName: `${this.service}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    this.addWidgets({ props, errorRates, latencies, tableThrottles, bounceRate, complaintRate });

    this.dashboardUrl = `https://console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }

  private keyOf(route: IdentityRouteId): string {
    return routeKey(identityRoutes[route], BASE_PATH);
  }

  /** A request metric of a route (dimensions service, route, and outcome when given), 5 minutes, Sum unless said. */
  private requestMetric(
    name: string,
    route: string,
    options: { outcome?: Outcome; statistic?: string; label?: string; period?: Duration } = {},
  ): Metric {
    return new Metric({
      namespace: IDENTITY_METRICS_NAMESPACE,
      metricName: name,
      dimensionsMap: {
        [SERVICE_DIMENSION]: this.service,
        [ROUTE_DIMENSION]: route,
        ...(options.outcome ? { [OUTCOME_DIMENSION]: options.outcome } : {}),
      },
      statistic: options.statistic ?? Stats.SUM,
      period: options.period ?? PERIOD,
      ...(options.label ? { label: options.label } : {}),
    });
  }

  /** A counter (dimension service only), summed. */
  private counter(name: Counter, period: Duration): Metric {
    return new Metric({
      namespace: IDENTITY_METRICS_NAMESPACE,
      metricName: name,
      dimensionsMap: { [SERVICE_DIMENSION]: this.service },
      statistic: Stats.SUM,
      period,
      label: name,
    });
  }

  /**
   * The share of a route's answers that were 5xx, in %: server_error and unavailable (503) over all. A period
   * with no 5xx has no such datapoints (FILL: 0); a period with no request at all has no rate (missing data).
   */
  private serverErrorRate(route: string): MathExpression {
    // Ids by route: the dashboard draws the three rates in one graph.
    return new MathExpression({
      expression: `100 * (FILL(${route}ServerError, 0) + FILL(${route}Unavailable, 0)) / ${route}Requests`,
      usingMetrics: {
        [`${route}Requests`]: this.requestMetric(REQUESTS, route),
        [`${route}ServerError`]: this.requestMetric(REQUESTS, route, { outcome: 'server_error' }),
        [`${route}Unavailable`]: this.requestMetric(REQUESTS, route, { outcome: 'unavailable' }),
      },
      period: PERIOD,
      label: `${route} 5xx %`,
    });
  }

  /** Read and write throttle events of the table and of each index, summed. */
  private tableThrottles(table: ITable): MathExpression {
    const scopes: Record<string, string>[] = [
      { TableName: table.tableName },
      ...TABLE.indexes.map((index) => ({ TableName: table.tableName, GlobalSecondaryIndexName: index.name })),
    ];
    const usingMetrics: Record<string, IMetric> = {};
    scopes.forEach((dimensionsMap, i) => {
      for (const [key, metricName] of [
        ['read', 'ReadThrottleEvents'],
        ['write', 'WriteThrottleEvents'],
      ] as const) {
        usingMetrics[`${key}${i}`] = new Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap,
          statistic: Stats.SUM,
          period: PERIOD,
        });
      }
    });
    return new MathExpression({
      expression: Object.keys(usingMetrics)
        .map((key) => `FILL(${key}, 0)`)
        .join(' + '),
      usingMetrics,
      period: PERIOD,
      label: 'DynamoDB throttle events (table and indexes)',
    });
  }

  private alarm(
    id: string,
    metric: IMetric,
    options: { threshold: number; evaluationPeriods: number; datapointsToAlarm?: number; description: string },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      metric,
      threshold: options.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: options.evaluationPeriods,
      datapointsToAlarm: options.datapointsToAlarm ?? options.evaluationPeriods,
      // No traffic is no news: a route nobody called, an account that sent no mail.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  private addWidgets({
    props,
    errorRates,
    latencies,
    tableThrottles,
    bounceRate,
    complaintRate,
  }: {
    props: MonitoringProps;
    errorRates: MathExpression[];
    latencies: Metric[];
    tableThrottles: MathExpression;
    bounceRate: Metric;
    complaintRate: Metric;
  }): void {
    const byOutcome = (route: IdentityRouteId) =>
      new GraphWidget({
        title: `Sign-ins per minute by outcome: ${this.keyOf(route)}`,
        left: OUTCOMES.map((outcome) =>
          this.requestMetric(REQUESTS, operationIdOf(route), {
            outcome,
            period: MINUTE,
            label: OUTCOME_LABELS[outcome],
          }),
        ),
        width: 12,
        stacked: true,
      });
    const counters = (title: string, names: readonly Counter[], period: Duration) =>
      new GraphWidget({ title, left: names.map((name) => this.counter(name, period)), width: 12 });
    const byFunction = (title: string, metricOf: (fn: IFunction) => Metric) =>
      new GraphWidget({
        title,
        left: [...props.functions.entries()].map(([operationId, fn]) =>
          metricOf(fn).with({ label: operationId, statistic: Stats.SUM, period: PERIOD }),
        ),
        width: 12,
      });
    const line = (value: number, label: string): HorizontalAnnotation => ({ value, label });

    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 }));
    this.dashboard.addWidgets(byOutcome('login'), byOutcome('loginVerify'));
    this.dashboard.addWidgets(
      counters('Failures and abuse per minute', SECURITY_COUNTERS, MINUTE),
      counters('Sign-ups and sessions per hour', BUSINESS_COUNTERS, Duration.hours(1)),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: '5xx rate (%) per 5 minutes',
        left: errorRates,
        leftAnnotations: [line(SERVER_ERROR_RATE_PERCENT, 'alarm')],
        leftYAxis: { min: 0 },
        width: 12,
      }),
      new GraphWidget({
        title: 'p99 latency (ms) per 5 minutes',
        left: latencies,
        leftAnnotations: WATCHED_ROUTES.map(({ route, p99Ms }) => line(p99Ms, `${route} alarm`)),
        leftYAxis: { min: 0 },
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      byFunction('Lambda errors per 5 minutes', (fn) => fn.metricErrors()),
      byFunction('Lambda throttles per 5 minutes', (fn) => fn.metricThrottles()),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'DynamoDB throttle events per 5 minutes',
        left: [tableThrottles],
        leftAnnotations: [line(TABLE_THROTTLES_THRESHOLD, 'alarm')],
        width: 8,
      }),
      new GraphWidget({
        title: 'SES reputation (account): bounce and complaint rates',
        left: [bounceRate],
        right: [complaintRate],
        leftAnnotations: [line(SES_BOUNCE_RATE, 'bounce alarm')],
        rightAnnotations: [line(SES_COMPLAINT_RATE, 'complaint alarm')],
        width: 8,
      }),
      new GraphWidget({
        // Stage throttling's 429s never reach a function: they are here, not in the request metrics.
        title: 'HTTP API per minute: requests, 4xx (stage throttling included), 5xx',
        left: [
          props.api.metricCount({ period: MINUTE, statistic: Stats.SUM, label: 'requests' }),
          props.api.metricClientError({ period: MINUTE, statistic: Stats.SUM, label: '4xx' }),
          props.api.metricServerError({ period: MINUTE, statistic: Stats.SUM, label: '5xx' }),
        ],
        width: 8,
      }),
    );
  }
}

/** The `route` dimension of a route's metrics: its operationId (shared/http/request-metrics.ts). */
function operationIdOf(route: IdentityRouteId): string {
  return identityRoutes[route].operationId;
}

/** The sum of one Lambda metric over a group of functions (FILL: a function not called has no datapoint). */
function sumOf(group: [string, IFunction][], metricOf: (fn: IFunction) => Metric, label: string): MathExpression {
  const usingMetrics: Record<string, IMetric> = {};
  group.forEach(([, fn], i) => {
    usingMetrics[`f${i}`] = metricOf(fn).with({ statistic: Stats.SUM, period: PERIOD });
  });
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((key) => `FILL(${key}, 0)`)
      .join(' + '),
    usingMetrics,
    period: PERIOD,
    label,
  });
}

/** An account-level SES reputation rate (a fraction: 0.05 is 5 %), its highest value in the hour. */
function sesReputation(metricName: string, label: string): Metric {
  return new Metric({
    namespace: 'AWS/SES',
    metricName,
    statistic: Stats.MAXIMUM,
    period: Duration.hours(1),
    label,
  });
}
