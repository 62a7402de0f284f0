import { callRecordSchema } from '../../common/api/calls';
import { api } from '../lib/api-client';

export function hangUpCall(callId: string) {
  return api.post(`/calls/${encodeURIComponent(callId)}/hangup`, callRecordSchema);
}
