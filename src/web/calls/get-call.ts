import { callRecordSchema } from '../../common/api/calls';
import { api } from '../lib/api-client';

export function getCall(callId: string) {
  return api.get(`/calls/${encodeURIComponent(callId)}`, callRecordSchema);
}
