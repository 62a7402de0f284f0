import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * The key that signs session cookies. Production must set AUTH_SECRET (config refuses otherwise);
 * elsewhere one is made once and kept in DATA_DIR so sessions survive a restart.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.dataDir, 'auth-secret');
  const kept = readSecret(file);
  if (kept) return kept;
  fs.mkdirSync(config.dataDir, { recursive: true });
  // Processes starting together on one DATA_DIR must end up with one key, or each refuses the
  // others' cookies: the key is written aside and linked into place, which only the first
  // process manages; the others read the key that won.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, randomBytes(32).toString('base64url'), { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.unlinkSync(draft);
  }
  const secret = readSecret(file);
  if (!secret) throw new Error(`${file} is empty: delete it and start again to make a new key`);
  return secret;
}

function readSecret(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return null;
  }
}
