import { z } from 'zod/mini';
import { callMediaFiguresSchema, type CallMediaFigures } from '../../common/call-quality';
import { api } from '../lib/api-client';

export async function saveMediaFigures(callId: string, figures: CallMediaFigures): Promise<void> {
  await api.put(`/calls/${encodeURIComponent(callId)}/media-figures`, z.undefined(), figures, callMediaFiguresSchema);
}
