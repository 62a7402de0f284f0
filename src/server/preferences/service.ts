import { eq } from 'drizzle-orm';
import { defaultPreferences, type Preferences } from '../../common/api/preferences';
import type { Database } from '../db/client';
import { preferences } from './schema';

export async function getPreferences(db: Database, userId: string): Promise<Preferences> {
  const [row] = await db.select().from(preferences).where(eq(preferences.userId, userId));
  if (!row) return { ...defaultPreferences };
  const { darkMode, notifications, callHistory, dataUsage, autoAnswer, recordCalls } = row;
  return { darkMode, notifications, callHistory, dataUsage, autoAnswer, recordCalls };
}

export async function updatePreferences(db: Database, userId: string, changes: Partial<Preferences>): Promise<Preferences> {
  const next = { ...(await getPreferences(db, userId)), ...changes };
  await db
    .insert(preferences)
    .values({ userId, ...next })
    .onConflictDoUpdate({ target: preferences.userId, set: { ...changes, updatedAt: new Date() } });
  return getPreferences(db, userId);
}
