import { z } from 'zod';
import type { ProviderCallEvent } from '../telephony-provider';

/** The fields of a Voice API event webhook that Voxline reads (docs/providers.md#vonage-webhooks); the rest are ignored. */
export const vonageCallEventSchema = z.object({
  uuid: z.string().min(1),
  status: z.string().min(1),
  detail: z.string().optional(),
});

export type VonageCallEvent = z.infer<typeof vonageCallEventSchema>;

const FAILED_REASONS: Record<string, string> = {
  cannot_route: 'The phone network could not route the call',
  number_out_of_service: 'That number is out of service',
  internal_error: 'The phone network had an internal error',
};

const REJECTED_REASONS: Record<string, string> = {
  invalid_number: 'That number is not valid',
  restricted: 'Calls to that number are restricted',
  declined: 'The call was declined',
};

/**
 * What a status means to the call engine, or null for one it does not act on: `disconnected`
 * (our websocket leg's end shows as the socket closing), and the statuses of features Voxline does
 * not use (machine detection, input, recording, transfer).
 */
export function toProviderCallEvent({ status, detail }: VonageCallEvent): ProviderCallEvent | null {
  switch (status) {
    case 'started':
    case 'ringing':
      return { type: 'ringing' };
    case 'answered':
      return { type: 'answered' };
    case 'completed':
      return { type: 'ended', outcome: 'completed', reason: null };
    case 'busy':
      return { type: 'ended', outcome: 'busy', reason: 'The line is busy' };
    case 'timeout':
    case 'unanswered':
      return { type: 'ended', outcome: 'no-answer', reason: 'Nobody answered' };
    case 'rejected':
      return { type: 'ended', outcome: 'rejected', reason: (detail && REJECTED_REASONS[detail]) ?? 'The call was declined' };
    case 'failed':
      return { type: 'ended', outcome: 'failed', reason: (detail && FAILED_REASONS[detail]) ?? 'The phone network could not connect the call' };
    case 'cancelled':
      return { type: 'ended', outcome: 'cancelled', reason: null };
    default:
      return null;
  }
}
