import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  ConfigurationSet,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  MailFromBehaviorOnMxFailure,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type FunctionSpec, type RouteFunctionOptions, serviceFunction } from './http-api.ts';
import { acknowledgeMailFindings } from './nag.ts';

/** The subdomain of the sender domain that SES's bounces come back to (custom MAIL FROM: SPF aligns with it). */
export const MAIL_FROM_SUBDOMAIN = 'bounce';

/**
 * The function that records bounces and complaints (functions/mail/ses-events.ts): an SNS subscriber, not a route.
 * It writes one suppression item per tenant and address (shared/store/README.md) and reads nothing else.
 */
export const SES_EVENTS_FUNCTION: FunctionSpec = {
  id: 'SesEvents',
  entry: 'functions/mail/ses-events.ts',
  description: "SES bounce and complaint events: suppresses mail to the tenant's address",
  tableActions: ['PutItem'],
  memoryMb: 256,
  timeoutSeconds: 10,
};

/** SES's events that reach the function: what suppresses an address, and what is only logged. */
const EVENTS = [
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.DELIVERY_DELAY,
];

/** A DNS record the deployer adds, as the stack prints it. */
export interface DnsRecord {
  name: string;
  type: 'CNAME' | 'MX' | 'TXT';
  value: string;
}

export interface MailProps {
  /** The From address; with senderDomain, an address at it. */
  senderEmail: string;
  /** The domain whose SES identity this stack makes (Easy DKIM, custom MAIL FROM); undefined: verified elsewhere. */
  senderDomain: string | undefined;
  /** The configuration set's name: the Identity stack's name, so that two deployments in one account stay apart. */
  serviceName: string;
  /** The account is in the SES sandbox (context sesSandbox): sending needs leave on every recipient identity too. */
  sandbox: boolean;
  /** What every function of the Identity stack gets (table, environment, logs, tracing). */
  functionOptions: Omit<RouteFunctionOptions, 'basePath' | 'extrasFor'>;
}

/**
 * Mail that works and is watched (README, Deploying to AWS: SES):
 * - the sender domain's SES identity, with Easy DKIM (three CNAMEs) and a custom MAIL FROM domain (an MX and an
 *   SPF record), when `senderDomain` is given: `dnsRecords` lists what to add to DNS;
 * - a configuration set that every mail is sent with (SES_CONFIGURATION_SET), tagged with its tenant and kind
 *   (shared/mail/ses-mailer.ts), whose bounce, complaint, reject and delivery-delay events go to an SNS topic and
 *   from there to the function that suppresses mail to an address that bounced hard or complained, per tenant;
 * - that function's dead-letter queue: an event it could not record (the table throttling after SNS's and
 *   Lambda's retries) is kept 14 days, and an alarm watches it (infra/monitoring.ts).
 */
export class Mail extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly identity: EmailIdentity | undefined;
  readonly eventsTopic: Topic;
  readonly eventsFunction: NodejsFunction;
  readonly deadLetters: Queue;
  /** What a sending function may send as: the address, its domain, and the configuration set it sends with. */
  readonly sendingArns: string[];
  /** The DNS records the sender domain needs; empty without senderDomain. */
  readonly dnsRecords: DnsRecord[] = [];

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: `${props.serviceName}-mail`,
      reputationMetrics: true,
    });

    if (props.senderDomain) {
      const mailFrom = `${MAIL_FROM_SUBDOMAIN}.${props.senderDomain}`;
      this.identity = new EmailIdentity(this, 'SenderIdentity', {
        identity: Identity.domain(props.senderDomain),
        configurationSet: this.configurationSet,
        mailFromDomain: mailFrom,
        // Until the MX record is there SES sends from its own domain rather than refusing the mail.
        mailFromBehaviorOnMxFailure: MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
      });
      for (const record of this.identity.dkimRecords) {
        this.dnsRecords.push({ name: record.name, type: 'CNAME', value: record.value });
      }
      this.dnsRecords.push(
        { name: mailFrom, type: 'MX', value: `10 feedback-smtp.${Aws.REGION}.amazonses.com` },
        { name: mailFrom, type: 'TXT', value: '"v=spf1 include:amazonses.com ~all"' },
        // DMARC: reports first (p=none); tighten to quarantine once the reports show only SES sending for the domain.
        { name: `_dmarc.${props.senderDomain}`, type: 'TXT', value: '"v=DMARC1; p=none;"' },
      );
    }

    const identityArn = (name: string) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name });
    const domain = props.senderEmail.slice(props.senderEmail.lastIndexOf('@') + 1);
    this.sendingArns = [
      identityArn(domain),
      identityArn(props.senderEmail),
      // In the sandbox SES checks the permission on each recipient's identity too (the verified addresses a
      // deployment tests with): any identity of the account, until production access (README, Deploying: SES).
      ...(props.sandbox ? [identityArn('*')] : []),
      stack.formatArn({
        service: 'ses',
        resource: 'configuration-set',
        resourceName: this.configurationSet.configurationSetName,
      }),
    ];

    this.eventsTopic = new Topic(this, 'Events', {
      displayName: `${props.serviceName} SES events`,
      enforceSSL: true,
    });
    this.configurationSet.addEventDestination('ToTopic', {
      destination: EventDestination.snsTopic(this.eventsTopic),
      events: EVENTS,
    });

    this.deadLetters = new Queue(this, 'EventsDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const { fn } = serviceFunction(this, SES_EVENTS_FUNCTION, props.functionOptions, {
      deadLetterQueue: this.deadLetters,
    });
    this.eventsFunction = fn;
    // What SNS cannot deliver to the function after its own retries goes to the same queue.
    this.eventsTopic.addSubscription(new LambdaSubscription(fn, { deadLetterQueue: this.deadLetters }));
    acknowledgeMailFindings({
      topic: this.eventsTopic,
      deadLetters: this.deadLetters,
      fn,
      tracing: props.functionOptions.tracing,
    });
  }
}
