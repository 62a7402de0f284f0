import { mediaConfigSchema } from '../../common/media';
import { api } from '../lib/api-client';

export function getMediaConfig() {
  return api.get('/media/config', mediaConfigSchema);
}
