import { placeCallBodySchema, placeCallResultSchema, type PlaceCallBody } from '../../common/api/calls';
import { api } from '../lib/api-client';

export function placeCall(body: PlaceCallBody) {
  return api.post('/calls', placeCallResultSchema, body, placeCallBodySchema);
}
