import type { SNSEvent } from 'aws-lambda';
import { handler as sesEventsFunction } from '#functions/mail/ses-events.ts';
import type { Deps } from '#shared/deps.ts';

/**
 * SES event publishing records as AWS documents them, for the SES events function
 * (functions/mail/ses-events.ts): "Examples of event data that Amazon SES publishes to Amazon SNS", Amazon SES
 * Developer Guide, https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html
 * (awsdocs/amazon-ses-developer-guide, doc-source/event-publishing-retrieving-sns-examples.md). Copied as
 * published (the Bounce, Complaint, Reject and DeliveryDelay records); `withTags` and `withRecipient` then make
 * one ours: the tags our mailer sends (shared/mail/tags.ts, published in `mail.tags` beside SES's own `ses:*`
 * tags, as the documented Delivery record shows custom tags) and an address of the test.
 */

type Json = Record<string, any>;

export const DOCUMENTED_BOUNCE: Json = {
  eventType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [
      {
        emailAddress: 'recipient@example.com',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'smtp; 550 5.1.1 user unknown',
      },
    ],
    timestamp: '2017-08-05T00:41:02.669Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    reportingMTA: 'dsn; mta.example.com',
  },
  mail: {
    timestamp: '2017-08-05T00:40:02.012Z',
    source: 'Sender Name <sender@example.com>',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: ['recipient@example.com'],
    headersTruncated: false,
    headers: [
      { name: 'From', value: 'Sender Name <sender@example.com>' },
      { name: 'To', value: 'recipient@example.com' },
      { name: 'Subject', value: 'Message sent from Amazon SES' },
      { name: 'MIME-Version', value: '1.0' },
      {
        name: 'Content-Type',
        value: 'multipart/alternative; boundary="----=_Part_7307378_1629847660.1516840721503"',
      },
    ],
    commonHeaders: {
      from: ['Sender Name <sender@example.com>'],
      to: ['recipient@example.com'],
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      subject: 'Message sent from Amazon SES',
    },
    tags: {
      'ses:configuration-set': ['ConfigSet'],
      'ses:source-ip': ['192.0.2.0'],
      'ses:from-domain': ['example.com'],
      'ses:caller-identity': ['ses_user'],
    },
  },
};

export const DOCUMENTED_COMPLAINT: Json = {
  eventType: 'Complaint',
  complaint: {
    complainedRecipients: [{ emailAddress: 'recipient@example.com' }],
    timestamp: '2017-08-05T00:41:02.669Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.90 Safari/537.36',
    complaintFeedbackType: 'abuse',
    arrivalDate: '2017-08-05T00:41:02.669Z',
  },
  mail: {
    timestamp: '2017-08-05T00:40:01.123Z',
    source: 'Sender Name <sender@example.com>',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: ['recipient@example.com'],
    headersTruncated: false,
    headers: [
      { name: 'From', value: 'Sender Name <sender@example.com>' },
      { name: 'To', value: 'recipient@example.com' },
      { name: 'Subject', value: 'Message sent from Amazon SES' },
      { name: 'MIME-Version', value: '1.0' },
      {
        name: 'Content-Type',
        value: 'multipart/alternative; boundary="----=_Part_7298998_679725522.1516840859643"',
      },
    ],
    commonHeaders: {
      from: ['Sender Name <sender@example.com>'],
      to: ['recipient@example.com'],
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      subject: 'Message sent from Amazon SES',
    },
    tags: {
      'ses:configuration-set': ['ConfigSet'],
      'ses:source-ip': ['192.0.2.0'],
      'ses:from-domain': ['example.com'],
      'ses:caller-identity': ['ses_user'],
    },
  },
};

export const DOCUMENTED_REJECT: Json = {
  eventType: 'Reject',
  mail: {
    timestamp: '2016-10-14T17:38:15.211Z',
    source: 'sender@example.com',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: ['sender@example.com'],
    headersTruncated: false,
    headers: [
      { name: 'From', value: 'sender@example.com' },
      { name: 'To', value: 'recipient@example.com' },
      { name: 'Subject', value: 'Message sent from Amazon SES' },
      { name: 'MIME-Version', value: '1.0' },
      { name: 'Content-Type', value: 'multipart/mixed; boundary="qMm9M+Fa2AknHoGS"' },
      { name: 'X-SES-MESSAGE-TAGS', value: 'myCustomTag1=myCustomTagValue1, myCustomTag2=myCustomTagValue2' },
    ],
    commonHeaders: {
      from: ['sender@example.com'],
      to: ['recipient@example.com'],
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      subject: 'Message sent from Amazon SES',
    },
    tags: {
      'ses:configuration-set': ['ConfigSet'],
      'ses:source-ip': ['192.0.2.0'],
      'ses:from-domain': ['example.com'],
      'ses:caller-identity': ['ses_user'],
      myCustomTag1: ['myCustomTagValue1'],
      myCustomTag2: ['myCustomTagValue2'],
    },
  },
  reject: { reason: 'Bad content' },
};

export const DOCUMENTED_DELIVERY_DELAY: Json = {
  eventType: 'DeliveryDelay',
  mail: {
    timestamp: '2020-06-16T00:15:40.641Z',
    source: 'sender@example.com',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: ['recipient@example.com'],
    headersTruncated: false,
    tags: { 'ses:configuration-set': ['ConfigSet'] },
  },
  deliveryDelay: {
    timestamp: '2020-06-16T00:25:40.095Z',
    delayType: 'TransientCommunicationFailure',
    expirationTime: '2020-06-16T00:25:40.914Z',
    delayedRecipients: [
      {
        emailAddress: 'recipient@example.com',
        status: '4.4.1',
        diagnosticCode: 'smtp; 421 4.4.1 Unable to connect to remote host',
      },
    ],
  },
};

const copy = (record: Json): Json => JSON.parse(JSON.stringify(record));

/** The record with the tags our mailer sends (`app`, `mid`, `kind`) added to `mail.tags`. */
export function withTags(record: Json, tags: { app: string; mid: string; kind?: string }): Json {
  const out = copy(record);
  out.mail.tags = {
    ...out.mail.tags,
    app: [tags.app],
    mid: [tags.mid],
    ...(tags.kind ? { kind: [tags.kind] } : {}),
  };
  return out;
}

/** The record with the documented recipient (`recipient@example.com`) replaced by `address` everywhere. */
export function withRecipient(record: Json, address: string): Json {
  return JSON.parse(JSON.stringify(record).replaceAll('recipient@example.com', address));
}

/**
 * What SNS gives a Lambda function subscribed to the topic ("Using Lambda with Amazon SNS", AWS Lambda Developer
 * Guide: `Records[].Sns.Message`, the published text), one record per message.
 */
export function snsEventOf(...messages: (Json | string)[]): SNSEvent {
  return {
    Records: messages.map((message, i) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:ses-feedback:5f1c2f5e-0000-4000-8000-000000000000',
      Sns: {
        Type: 'Notification',
        MessageId: `95df01b4-ee98-5cb9-9903-4c221d41eb5${i}`,
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-feedback',
        Subject: null as unknown as string,
        Message: typeof message === 'string' ? message : JSON.stringify(message),
        Timestamp: '2017-08-05T00:41:03.000Z',
        SignatureVersion: '1',
        Signature: 'EXAMPLE',
        SigningCertUrl: 'EXAMPLE',
        UnsubscribeUrl: 'EXAMPLE',
        MessageAttributes: {},
      },
    })),
  };
}

/**
 * SNS's delivery of `event` to the SES events function (functions/mail/ses-events.ts), invoked with a local stack's
 * deps as its gateway hands them to the HTTP functions: the stack's table and settings.
 */
export function deliverSesEvents(stack: { deps: Deps }, event: SNSEvent): Promise<void> {
  return sesEventsFunction(event, { awsRequestId: 'sns-delivery', deps: stack.deps });
}
