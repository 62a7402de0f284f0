import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_MESSAGE_MIN_LENGTH, supportRequestBodySchema, type SupportRequest } from '../../../../common/api/support';
import { plans, tierName, type Tier } from '../../../../common/plans';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { LoadFailed } from '../../../components/load-failed';
import { PageLoading } from '../../../components/page-loading';
import { PendingButton } from '../../../components/pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { subscriptionQuery } from '../../../lib/subscription';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { MessageField } from './message-field';
import { supportRequestsQuery, useSendSupportRequest } from './support-api';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Settings › Support: the plan's support level, a message to support, and the requests sent (docs/decisions/038-support-by-plan.md). */
export function SupportTab() {
  const subscription = useQuery(subscriptionQuery);
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Contact support</CardTitle>
          <CardDescription>Write to us about anything in Voxline. We answer by email, as fast as your plan's support level says.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {subscription.isPending ? (
            <PageLoading />
          ) : subscription.isError ? (
            <LoadFailed message="Failed to load your support level" onRetry={() => void subscription.refetch()} />
          ) : (
            <SupportLevel tier={subscription.data.tier} />
          )}
          <SupportForm />
        </CardContent>
      </Card>
      <PastRequests />
    </div>
  );
}

function SupportLevel({ tier }: { tier: Tier }) {
  const level = plans[tier].support;
  return (
    <section aria-label="Your support level" className="rounded-md border p-4">
      <p className="font-medium">
        {tierName(tier)}: {level.name}
      </p>
      <p className="text-sm text-muted-foreground">{level.description}</p>
    </section>
  );
}

function SupportForm() {
  const form = useZodForm(supportRequestBodySchema, { defaultValues: { subject: '', message: '' } });
  const send = useSendSupportRequest();
  const [sent, setSent] = useState<SupportRequest | null>(null);
  const id = useId();

  const submit = submitHandler(form, async (values) => {
    setSent(null);
    setSent(await send.mutateAsync(values));
    form.reset();
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Message to support">
      <FormInput form={form} name="subject" id={`${id}-subject`} label="Subject" placeholder="What is it about?" />
      <MessageField
        form={form}
        name="message"
        id={`${id}-message`}
        label="Message"
        hint={`What happened, and what you expected: ${SUPPORT_MESSAGE_MIN_LENGTH} to ${SUPPORT_MESSAGE_MAX_LENGTH} characters.`}
      />
      <FormAlert title="Your message was not sent." message={form.formState.errors.root?.server?.message} />
      {sent && (
        <p role="status" className="text-sm">
          Message sent. We will answer by {when(sent.replyDueAt)}.
        </p>
      )}
      <PendingButton type="submit" className="w-full sm:w-fit" pending={form.formState.isSubmitting}>
        Send to support
      </PendingButton>
    </form>
  );
}

function PastRequests() {
  const requests = useQuery(supportRequestsQuery);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your requests</CardTitle>
        <CardDescription>What you have sent to support, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {requests.isPending ? (
          <PageLoading />
        ) : requests.isError ? (
          <LoadFailed message="Failed to load your requests" onRetry={() => void requests.refetch()} />
        ) : requests.data.requests.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have not written to support yet.</p>
        ) : (
          <ul aria-label="Your requests" className="flex flex-col divide-y">
            {requests.data.requests.map((request) => (
              <li key={request.id} className="flex flex-col gap-1 py-3">
                <p className="font-medium">{request.subject}</p>
                <p className="text-sm text-muted-foreground">
                  Sent <time dateTime={request.createdAt}>{when(request.createdAt)}</time> ·{' '}
                  {request.delivered ? (
                    <>
                      answer due by <time dateTime={request.replyDueAt}>{when(request.replyDueAt)}</time>
                    </>
                  ) : (
                    'not delivered to support: send it again'
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
