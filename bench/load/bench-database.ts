import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A uniquely named database on the machine's PostgreSQL, dropped by `drop`. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `voxline_load_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
