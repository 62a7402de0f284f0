import { dtmfBodySchema, dtmfResultSchema } from '../../common/api/calls';
import { api } from '../lib/api-client';

export function sendDtmf(callId: string, digits: string) {
  return api.post(`/calls/${encodeURIComponent(callId)}/dtmf`, dtmfResultSchema, { digits }, dtmfBodySchema);
}
