import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { reportPoolErrors } from './client';

describe('reportPoolErrors', () => {
  it('logs an idle pooled connection’s failure once given a log, and never lets it crash the process', async () => {
    // Nothing connects: the pool only opens connections for queries.
    const pool = new pg.Pool({ connectionString: 'postgres://voxline@127.0.0.1:1/voxline' });
    try {
      const logged: { obj: object; msg: string }[] = [];
      const logTo = reportPoolErrors(pool);
      const lost = new Error('terminating connection due to administrator command');
      expect(() => pool.emit('error', lost)).not.toThrow();
      expect(logged).toEqual([]);

      logTo({ error: (obj, msg) => logged.push({ obj, msg }) });
      pool.emit('error', lost);
      expect(logged).toEqual([{ obj: { err: lost }, msg: expect.stringContaining('a pooled connection failed while idle') }]);
    } finally {
      await pool.end();
    }
  });
});
