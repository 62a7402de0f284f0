import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

type Schema = typeof schema;
/** Voxline's database through Drizzle, whichever driver (PGlite or PostgreSQL) carries it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
